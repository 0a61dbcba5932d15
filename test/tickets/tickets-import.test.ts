import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPrisma } from "@mw/platform";
import { urgencyAnalysisJobId } from "@mw/domains/urgency";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../support/processes.ts";
import { entrySignal, newTicketId, ticketBody } from "../support/tickets.ts";
import { startApi } from "../support/api.ts";

const prisma = createPrisma(process.env.DATABASE_URL!);
afterAll(() => prisma.$disconnect());

async function importFile(...args: string[]) {
  const { code, stdout, stderr } = await runCli("tickets:import", ...args);
  const summary = stdout.split("\n").filter((line) => line.startsWith('{"success"')).at(-1);
  return { code, summary: summary ? (JSON.parse(summary) as Record<string, unknown>) : null, stderr };
}

describe("pnpm cli tickets:import FILE.jsonl (design 10.1)", () => {
  it("backfills tickets, entries and staff line by line, reports bad lines by number and skips them, and can be run again", async () => {
    const id = newTicketId();
    const lines = [
      JSON.stringify({ signal: "ticket.created", ticket: ticketBody(id) }),
      JSON.stringify(entrySignal(id, "M", "The shop was down last night.")),
      JSON.stringify(entrySignal(id, "R", "Fixed, it was the cache.")),
      "{not json",
      JSON.stringify(entrySignal(id, "M", "bad", { type: "Q" })),
      "",
      JSON.stringify({ signal: "staff.updated", staff: { id: 77, name: "Imported Staff", email: "imported@agency.example" } }),
    ];
    const file = path.join(mkdtempSync(path.join(tmpdir(), "tickets-")), "signals.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`);

    const first = await importFile(file);
    expect(first.code).toBe(0);
    expect(first.summary).toEqual({ success: true, lines: 7, applied: 4, unchanged: 0, skipped: 2, analyses_queued: 0 });
    expect(first.stderr).toContain("line 4: not JSON, skipped");
    expect(first.stderr).toMatch(/line 5: entry\.type: .*, skipped/);
    const ticket = await prisma.ticket.findUniqueOrThrow({ where: { id }, include: { entries: true } });
    expect(ticket.opened_at.toISOString()).toBe("2026-11-20T09:00:00.000Z");
    expect(ticket.entries.map((entry) => entry.type).sort()).toEqual(["M", "R"]);
    expect(await prisma.staff.findUnique({ where: { id: 77 } })).toMatchObject({ name: "Imported Staff" });
    expect(await prisma.urgencyQueueEntry.findUnique({ where: { ticket_id: id } })).toBeNull();

    const again = await importFile(file, "--analyse");
    expect(again.summary).toMatchObject({ applied: 0, unchanged: 4, skipped: 2, analyses_queued: 0 });
  });

  it("queues one analysis per ticket that received entries with --analyse", async () => {
    const id = newTicketId();
    const file = path.join(mkdtempSync(path.join(tmpdir(), "tickets-")), "signals.jsonl");
    writeFileSync(file, [entrySignal(id, "M", "one"), entrySignal(id, "M", "two")].map((line) => JSON.stringify(line)).join("\n"));
    const api = await startApi();
    try {
      const run = await importFile(file, "--analyse");
      expect(run.summary).toMatchObject({ applied: 2, analyses_queued: 1 });
      expect(await prisma.urgencyQueueEntry.findUnique({ where: { ticket_id: id } })).toMatchObject({ processed: false, failures: 0 });
      const job = await api.ctx.queues.get("urgency").getJob(urgencyAnalysisJobId(id));
      expect(job?.data).toEqual({ ticket_id: id });
      await job?.remove();
    } finally {
      await api.close();
    }
  });
});

describe("pnpm cli staff:import FILE.csv (issue 20: the staff directory)", () => {
  it("creates and updates staff from CSV, reports bad rows and skips them", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "staff-")), "staff.csv");
    writeFileSync(file, ["id,name,email,phone,department_id,is_project_manager,is_department_manager", "301,Pat Manager,pat@agency.example,+15550000301,2,yes,no", "302,Dana Head,dana@agency.example,,2,0,1", "x,Broken,,,,,", "303,,nobody@agency.example,,,,"].join("\n"));
    const run = await runCli("staff:import", file);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout.split("\n").find((line) => line.startsWith('{"success"'))!) as Record<string, unknown>;
    expect(summary).toEqual({ success: true, rows: 4, applied: 2, unchanged: 0, skipped: 2 });
    expect(run.stderr).toMatch(/row 4: id: .*, skipped/);
    expect(run.stderr).toMatch(/row 5: name: .*, skipped/);
    expect(await prisma.staff.findUnique({ where: { id: 301 } })).toMatchObject({ name: "Pat Manager", phone: "+15550000301", department_id: 2, is_project_manager: true, is_department_manager: false });
    expect(await prisma.staff.findUnique({ where: { id: 302 } })).toMatchObject({ phone: null, is_department_manager: true });
  });
});

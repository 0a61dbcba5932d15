import { spawn, type ChildProcess } from "node:child_process";
import { describe, expect, it } from "vitest";
import { dropDatabase } from "../../scripts/migrations/apply.ts";
import { testEnv } from "../support/env.ts";
import { ROOT } from "../support/processes.ts";
import { until } from "../support/wait.ts";

/** Signs in with the console's own form, as a browser on that page does, and opens the first page it leads to. */
async function consoleSignIn(base: string, login: string, password: string): Promise<{ status: number; page: string }> {
  const signIn = await fetch(`${base}/console/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ login, password }).toString(),
    redirect: "manual",
  });
  expect(signIn.status).toBe(303);
  const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0]!;
  expect(cookie).toMatch(/=./);
  const start = await fetch(`${base}/console/`, { headers: { cookie }, redirect: "manual" });
  const page = await fetch(new URL(start.headers.get("location") ?? "/console/", base), { headers: { cookie }, redirect: "manual" });
  return { status: page.status, page: await page.text() };
}

/** What the run shows: the console login works while it runs, then both halves' figures and no failed job. */
async function checkRun(child: ChildProcess, out: () => string, exited: Promise<unknown>): Promise<void> {
  // The login is tried while the demo runs (it stops after its traffic).
  const consoleLine = /Console +(http:\/\/127\.0\.0\.1:\d+)\/console +\(sign in: (\S+) \/ (\S+); a staff member\)/;
  await until(() => consoleLine.test(out()) || child.exitCode !== null, () => `the console line; output:\n${out()}`, 300_000);
  const [, base, login, password] = consoleLine.exec(out()) ?? [];
  expect(base, out()).toBeDefined();
  const signedIn = await consoleSignIn(base!, login!, password!);
  expect(signedIn.status).toBe(200);
  expect(signedIn.page).toContain("<h1>Urgency snapshots</h1>");
  expect(signedIn.page).toContain(`<span class="login">${login}</span>`);
  // The administrator's console login opens every section.
  const adminLine = /Console +http:\/\/127\.0\.0\.1:\d+\/console +\(sign in: (\S+) \/ (\S+); an administrator: every page\)/.exec(out());
  expect(adminLine, out()).not.toBeNull();
  const administrator = await consoleSignIn(base!, adminLine![1]!, adminLine![2]!);
  expect(administrator.status).toBe(200);
  for (const section of ["snapshots", "tickets", "chat", "settings", "operations", "orders", "disputes", "sites", "sync-runs", "items", "merchant-accounts", "reports", "managed-sites"]) expect(administrator.page).toContain(`href="/console/${section}"`);

  const code = await exited;
  const output = out();
  expect(code, output).toBe(0);
  expect(output).toMatch(/Bull Board is up after [\d.]+ s/);
  const done =
    /Done after [\d.]+ s: orders (\d+) pushed \(0 refused\), (\d+) exported, \d+ verified; disputes (\d+) sent, (\d+) linked, (\d+) chargebacks; tracking numbers on storefronts (\d+); stock writes (\d+); product webhooks (\d+); reports (\d+); e-mails (\d+)/.exec(
      output,
    );
  expect(done, output).not.toBeNull();
  const [pushed, exported, disputes, , chargebacks, trackings, stock, , reports] = done!.slice(1).map(Number);
  // At least one round of every kind of traffic (10 steps), however slow the machine.
  expect(pushed, output).toBeGreaterThanOrEqual(10);
  expect(exported).toBe(pushed);
  expect(disputes).toBeGreaterThan(0);
  expect(chargebacks).toBeGreaterThan(0);
  expect(trackings).toBeGreaterThan(0);
  expect(stock).toBeGreaterThan(0);
  expect(reports).toBe(1);

  const desk =
    /Done after [^\n]*\n {2}desk: tickets (\d+) \((\d+) thread entries\), urgency snapshots (\d+) \((\d+) CRITICAL\); CRITICAL alerts: e-mails (\d+), texts (\d+); assistant answers (\d+); Harvest connections (\d+), timers (\d+), time entries logged (\d+)/.exec(
      output,
    );
  expect(desk, output).not.toBeNull();
  const [tickets, entries, snapshots, critical, criticalMails, texts, answers, connections, timers, logged] = desk!.slice(1).map(Number);
  // The first act: the checkout (5 entries), the project ticket (2) and the VIP's contact form (1).
  expect(tickets).toBeGreaterThanOrEqual(3);
  expect(entries).toBeGreaterThanOrEqual(8);
  expect(snapshots).toBeGreaterThanOrEqual(tickets!);
  expect(critical).toBeGreaterThan(0);
  // Sam, Dana (department manager) and Pat (project manager) get the one CRITICAL mail and a text each.
  expect(criticalMails).toBe(1);
  expect(texts).toBe(3);
  expect(answers).toBe(1);
  expect(connections).toBe(1);
  expect(timers).toBe(1);
  // The manual entry and the timer Sam's reply stopped.
  expect(logged).toBe(2);
  expect(output).toMatch(/Assistant: sam asked "What happened on #000101, and what should I tell the client\?"\n {2}and got: "#000101 broke with the payment plugin update/);
  expect(output).not.toContain("Failed jobs");
}

describe("pnpm demo", () => {
  it("starts the platform against the fakes, drives both halves, prints a console login that works, and leaves no job failed", async () => {
    const env = testEnv();
    const child = spawn("pnpm", ["demo"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: env.DATABASE_URL, REDIS_URL: env.REDIS_URL, QUEUE_PREFIX: env.QUEUE_PREFIX, PORT: "0", DEMO_MINUTES: "0.35", DEMO_EXIT: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    try {
      await checkRun(child, () => output, exited);
    } finally {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
      await dropDatabase(`${env.DATABASE_URL}_demo`);
    }
  }, 600_000);
});

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, userWith, type TestApi } from "../support/api.ts";
import { runCli, runCliProcess } from "../support/processes.ts";

let api: TestApi;
let admin: string;
const RUN = `${process.pid}-${Date.now() % 100000}`;

beforeAll(async () => {
  api = await startApi();
  admin = await userWith(api, "manage_options");
});

afterAll(async () => {
  await api.close();
});

async function importLicenses(file: string, cli = runCli) {
  const run = await cli("licenses:import", file);
  expect(run.code).toBe(0);
  return { summary: JSON.parse(run.stdout.split("\n").find((line) => line.startsWith('{"success"'))!) as Record<string, unknown>, output: run.stdout + run.stderr };
}

describe("pnpm cli licenses:import FILE.csv (design 10.8: licenses have a source)", () => {
  it("creates licenses with encrypted keys and their costs, reports bad rows by line, and changes nothing on a second run", async () => {
    const cost = await api.ctx.prisma.cost.create({ data: { name: "Forms", vendor: `Import ${RUN}`, amount: 259, currency: "USD", cycle: "yearly" } });
    const file = path.join(mkdtempSync(path.join(tmpdir(), "licenses-")), "licenses.csv");
    writeFileSync(
      file,
      [
        "product,license_key,seats,expires_on,cost_id,notes",
        `Gravity Forms ${RUN},GF-KEY-0001,10,2027-01-15,${cost.id},agency licence`,
        `ACF Pro ${RUN},ACF-KEY-0002,,2027-06-30,,`,
        `WP Rocket ${RUN},,3,,,no key yet`,
        `Broken date ${RUN},KEY-3,1,2027-02-30,,`,
        `Unknown cost ${RUN},KEY-4,1,,2000000000,`,
      ].join("\n"),
    );
    // As a process: everything it prints, its log lines included, is what must not hold a key.
    const first = await importLicenses(file, runCliProcess);
    expect(first.summary).toEqual({ success: true, rows: 5, created: 3, updated: 0, skipped: 2 });
    expect(first.output).toMatch(/row 5: expires_on: .*, skipped/);
    expect(first.output).toMatch(/row 6: No cost 2000000000\. skipped/);
    expect(first.output).not.toContain("GF-KEY-0001");

    const stored = await api.ctx.prisma.license.findFirstOrThrow({ where: { product: `Gravity Forms ${RUN}` } });
    expect(stored.license_key).not.toContain("GF-KEY");
    expect(stored).toMatchObject({ seats: 10, cost_id: cost.id, notes: "agency licence" });

    const listed = await fetch(`${api.url}/admin-ajax`, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: JSON.stringify({ action: "get_licenses", search: RUN }) });
    const { data } = (await listed.json()) as { data: { total: number; licenses: { product: string; license_key_set: boolean; cost: { id: number } | null }[] } };
    expect(data.total).toBe(3);
    expect(data.licenses.map((license) => [license.product, license.license_key_set, license.cost?.id ?? null])).toEqual([
      [`Gravity Forms ${RUN}`, true, cost.id],
      [`ACF Pro ${RUN}`, true, null],
      [`WP Rocket ${RUN}`, false, null],
    ]);

    expect((await importLicenses(file)).summary).toEqual({ success: true, rows: 5, created: 0, updated: 3, skipped: 2 });
    expect(await api.ctx.prisma.license.count({ where: { product: { contains: RUN } } })).toBe(3);
    // Two CLI processes start one after the other: seconds each on a loaded 2-core machine.
  }, 90_000);
});

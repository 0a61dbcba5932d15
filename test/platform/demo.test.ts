import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { dropDatabase } from "../../scripts/migrations/apply.ts";
import { testEnv } from "../support/env.ts";
import { ROOT } from "../support/processes.ts";

describe("pnpm demo", () => {
  it("starts the platform against the fakes, drives every kind of job, and leaves none failed", async () => {
    const env = testEnv();
    const child = spawn("pnpm", ["demo"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: env.DATABASE_URL, REDIS_URL: env.REDIS_URL, QUEUE_PREFIX: env.QUEUE_PREFIX, PORT: "0", DEMO_MINUTES: "0.35", DEMO_EXIT: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    await dropDatabase(`${env.DATABASE_URL}_demo`);
    expect(code, output).toBe(0);
    expect(output).toMatch(/Bull Board is up after [\d.]+ s/);
    const done = /Done after [\d.]+ s: orders (\d+) pushed \(0 refused\), (\d+) exported, \d+ verified; disputes (\d+) sent, (\d+) linked, (\d+) chargebacks; tracking numbers on storefronts (\d+); stock writes (\d+); product webhooks (\d+); reports (\d+); e-mails (\d+)/.exec(output);
    expect(done, output).not.toBeNull();
    const [pushed, exported, disputes, , chargebacks, trackings, stock, , reports] = done!.slice(1).map(Number);
    expect(pushed).toBeGreaterThan(5);
    expect(exported).toBe(pushed);
    expect(disputes).toBeGreaterThan(0);
    expect(chargebacks).toBeGreaterThan(0);
    expect(trackings).toBeGreaterThan(0);
    expect(stock).toBeGreaterThan(0);
    expect(reports).toBe(1);
    expect(output).not.toContain("Failed jobs");
  }, 180_000);
});

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { configSchema } from "@mw/platform";
import { afterAll, describe, expect, it } from "vitest";
import { testEnv } from "../support/env.ts";
import { ROOT } from "../support/processes.ts";

// After the README's quick start the checkout's .env holds ERP_TOKEN; a test that sets the ERP's OAuth
// client credentials must not see it (or an ERP_TOKEN in the caller's shell) and fail on "not both".
const dir = mkdtempSync(path.join(tmpdir(), "mw-test-env-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const envFile = path.join(dir, ".env");
writeFileSync(envFile, "ERP_TOKEN=from-the-checkout\n");

const OAUTH = { ERP_TOKEN_URL: "http://127.0.0.1:1/token", ERP_CLIENT_ID: "id", ERP_CLIENT_SECRET: "secret", ERP_SCOPE: "orders" };

/** What the platform's configuration makes of `env` once the .env-like file has filled in what it lacks, as the config loader does. */
function configWith(env: Record<string, string>): string {
  const script = `process.loadEnvFile(${JSON.stringify(envFile)});
const { parseConfig } = await import("@mw/platform");
try { const config = parseConfig(process.env, "cli"); console.log(JSON.stringify({ ERP_TOKEN: config.ERP_TOKEN ?? null })); }
catch (error) { console.log(JSON.stringify({ error: error.message })); }`;
  return execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, env: { PATH: process.env.PATH!, ...env }, encoding: "utf8" });
}

describe("the suite's environment", () => {
  it("keeps a .env file's conflicting ERP_TOKEN out of a test process and its children", () => {
    expect(JSON.parse(configWith(testEnv(OAUTH)))).toEqual({ ERP_TOKEN: null });
  }, 60_000);

  it("is what keeps it out: without it the same file's token meets the client credentials and the configuration refuses", () => {
    const { ENCRYPTION_KEY, DATABASE_URL, REDIS_URL } = testEnv();
    expect(JSON.parse(configWith({ ENCRYPTION_KEY: ENCRYPTION_KEY!, DATABASE_URL: DATABASE_URL!, REDIS_URL: REDIS_URL!, ...OAUTH })).error).toContain(
      "set either ERP_TOKEN or the ERP OAuth client credentials, not both",
    );
  }, 60_000);

  it("holds every platform setting as the suite sets it, none from the caller's shell", () => {
    const own = testEnv();
    for (const name of Object.keys(configSchema.shape)) expect([name, process.env[name] ?? ""]).toEqual([name, own[name]]);
  });
});

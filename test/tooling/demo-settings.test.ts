import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseConfig } from "@mw/platform";
import { describe, expect, it } from "vitest";
import { demoSettings, isolatedEnvironment } from "../../scripts/demo/settings.ts";

function envFile(text: string): string {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "demo-env-")), ".env");
  writeFileSync(file, text);
  return file;
}

const OPERATOR = envFile(
  [
    "DATABASE_URL=mysql://shop:secret@127.0.0.1:3306/shop",
    "REDIS_URL=redis://127.0.0.1:6380",
    "QUEUE_PREFIX=shop",
    "PORT=3100",
    "DB_POOL_SIZE=3",
    "AI_API_KEY=AIza-a-real-key",
    "SMS_ACCOUNT_SID=AC-a-real-account",
    "HARVEST_API_URL=https://api.harvestapp.com",
    "",
  ].join("\n"),
);

describe("pnpm demo's settings (issue 33)", () => {
  it("takes the database, Redis, prefix and port from .env: a database and prefix of its own beside the operator's", () => {
    const settings = demoSettings({}, OPERATOR);
    expect(settings).toMatchObject({
      baseDatabaseUrl: "mysql://shop:secret@127.0.0.1:3306/shop",
      databaseUrl: "mysql://shop:secret@127.0.0.1:3306/shop_demo",
      redisUrl: "redis://127.0.0.1:6380",
      queuePrefix: "shop_demo",
      port: 3100,
    });
  });

  it("lets the environment win over .env, and falls back to the platform's defaults without either", () => {
    expect(demoSettings({ PORT: "0", QUEUE_PREFIX: "ci", DATABASE_URL: "mysql://mw:mw@127.0.0.1:3306/ci" }, OPERATOR)).toMatchObject({ port: 0, queuePrefix: "ci_demo", databaseUrl: "mysql://mw:mw@127.0.0.1:3306/ci_demo" });
    expect(demoSettings({}, path.join(tmpdir(), "no-such-dir", ".env"))).toMatchObject({ databaseUrl: "mysql://mw:mw@127.0.0.1:3306/mw_demo", queuePrefix: "mw_demo", port: 3000, redisUrl: "redis://127.0.0.1:6379" });
  });

  it("gives the demo's processes none of the operator's other settings: a real AI key or SMS account in .env stays unused", () => {
    const environment = isolatedEnvironment(demoSettings({}, OPERATOR), { AI_API_KEY: "fake-key", ENCRYPTION_KEY: "0f".repeat(32) });
    // Set but empty: the platform reads empty as unset, and its .env loading fills in only variables not set at all.
    expect(environment).toMatchObject({ SMS_ACCOUNT_SID: "", HARVEST_API_URL: "", DB_POOL_SIZE: "3", AI_API_KEY: "fake-key" });
    const config = parseConfig(environment, "worker");
    expect(config.SMS_ACCOUNT_SID).toBeUndefined();
    expect(config.AI_API_KEY).toBe("fake-key");
    expect(config.DB_POOL_SIZE).toBe(3);
  });
});

import { ConfigError, configSchema, parseConfig, trustProxyDeprecation } from "@mw/platform";
import { describe, expect, it } from "vitest";
import { testEnv } from "../support/env.ts";
import { logged, spawnEntry } from "../support/processes.ts";

const KEY = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

function problems(env: Record<string, string>): string[] {
  try {
    parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("configuration", () => {
  it("applies the documented defaults", () => {
    const config = parseConfig({ ENCRYPTION_KEY: KEY });
    expect(config).toMatchObject({
      PORT: 3000,
      QUEUE_PREFIX: "mw",
      API_ROOT: "/middleware/v1",
      REST_ROOT: "",
      LOG_DIR: "logs",
      DATABASE_URL: "mysql://mw:mw@127.0.0.1:3306/mw",
      REDIS_URL: "redis://127.0.0.1:6379",
    });
    expect(config.DATABASE_REPLICA_URL).toBeUndefined();
    expect(config.WORKER_QUEUES).toEqual(["orders", "disputes", "inventory", "tracking", "urgency", "reports", "notifications", "webhooks", "timetracking", "dashboard", "knowledge", "retention"]);
    expect(config.ENCRYPTION_KEY).toHaveLength(32);
  });

  it("names every bad variable", () => {
    expect(problems({ ENCRYPTION_KEY: KEY, PORT: "eighty" })).toEqual([expect.stringMatching(/^PORT: /)]);
    expect(problems({ ENCRYPTION_KEY: "short" })).toEqual([expect.stringMatching(/^ENCRYPTION_KEY: must be 32 bytes/)]);
    expect(problems({})).toEqual(["ENCRYPTION_KEY: is required"]);
    expect(problems({ ENCRYPTION_KEY: KEY, API_ROOT: "middleware/v1/" })).toEqual([expect.stringMatching(/^API_ROOT: /)]);
    expect(problems({ ENCRYPTION_KEY: KEY, WORKER_QUEUES: "orders,nope" })).toEqual([expect.stringMatching(/^WORKER_QUEUES: unknown queue "nope"/)]);
    expect(problems({ ENCRYPTION_KEY: KEY, DATABASE_URL: "postgres://x/y", LOG_LEVEL: "loud" }).map((p) => p.split(":")[0])).toEqual([
      "DATABASE_URL",
      "LOG_LEVEL",
    ]);
    expect(problems({ ENCRYPTION_KEY: KEY, DATABASE_REPLICA_URL: "db-replica:3306" })).toEqual(["DATABASE_REPLICA_URL: must be mysql://USER:PASSWORD@HOST:PORT/DATABASE"]);
  });

  it("refuses S3 settings without a bucket, and one S3 key without the other", () => {
    expect(problems({ ENCRYPTION_KEY: KEY, S3_ENDPOINT: "http://minio:9000" })).toEqual(["S3_BUCKET: is required when S3_ENDPOINT is set"]);
    expect(problems({ ENCRYPTION_KEY: KEY, S3_BUCKET: "b", S3_ACCESS_KEY_ID: "AKIA" })).toEqual([
      "S3_SECRET_ACCESS_KEY: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together",
    ]);
    expect(problems({ ENCRYPTION_KEY: KEY, S3_BUCKET: "b", S3_ENDPOINT: "http://minio:9000" })).toEqual([]);
  });

  it("takes ERP credentials as a static token or a complete OAuth client-credentials set, refusing half of one or both", () => {
    const oauth = { ERP_TOKEN_URL: "https://login.example/t/oauth2/v2.0/token", ERP_CLIENT_ID: "id", ERP_CLIENT_SECRET: "secret", ERP_SCOPE: "api/.default" };
    expect(problems({ ENCRYPTION_KEY: KEY, ERP_TOKEN: "static" })).toEqual([]);
    expect(problems({ ENCRYPTION_KEY: KEY, ...oauth })).toEqual([]);
    expect(problems({ ENCRYPTION_KEY: KEY, ERP_TOKEN_URL: oauth.ERP_TOKEN_URL, ERP_CLIENT_ID: "id" })).toEqual([
      "ERP_CLIENT_SECRET: is required when ERP_TOKEN_URL is set (ERP OAuth client credentials: ERP_TOKEN_URL, ERP_CLIENT_ID, ERP_CLIENT_SECRET, ERP_SCOPE)",
      "ERP_SCOPE: is required when ERP_TOKEN_URL is set (ERP OAuth client credentials: ERP_TOKEN_URL, ERP_CLIENT_ID, ERP_CLIENT_SECRET, ERP_SCOPE)",
    ]);
    expect(problems({ ENCRYPTION_KEY: KEY, ERP_TOKEN: "static", ...oauth })).toEqual(["ERP_TOKEN: set either ERP_TOKEN or the ERP OAuth client credentials, not both"]);
  });

  it("accepts a base64 key and per-queue concurrency", () => {
    const config = parseConfig({
      ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      WORKER_QUEUES: "disputes, tracking",
      WORKER_CONCURRENCY_DISPUTES: "12",
    });
    expect(config.WORKER_QUEUES).toEqual(["disputes", "tracking"]);
    expect(config.WORKER_CONCURRENCY_DISPUTES).toBe(12);
  });

  it("reads TRUST_PROXY as a hop count or the proxies' addresses, never as trust in everyone", () => {
    const trust = (value: string) => parseConfig({ ENCRYPTION_KEY: KEY, TRUST_PROXY: value }).TRUST_PROXY;
    expect(parseConfig({ ENCRYPTION_KEY: KEY }).TRUST_PROXY).toBe(false);
    expect([trust("false"), trust("0"), trust("1"), trust("2")]).toEqual([false, false, 1, 2]);
    expect(trust("10.0.0.0/8, 192.168.1.4,fd00::/8, loopback")).toEqual(["10.0.0.0/8", "192.168.1.4", "fd00::/8", "loopback"]);
    // The old "trust any X-Forwarded-For" is one hop now, with a warning at start-up.
    expect(trust("true")).toBe(1);
    expect(trustProxyDeprecation({ TRUST_PROXY: "true" })).toMatch(/^TRUST_PROXY=true is deprecated and now means one proxy hop \(TRUST_PROXY=1\)/);
    expect(trustProxyDeprecation({ TRUST_PROXY: "1" })).toBeNull();
    expect(problems({ ENCRYPTION_KEY: KEY, TRUST_PROXY: "everyone" })).toEqual([expect.stringMatching(/^TRUST_PROXY: "everyone" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal; give a hop count/)]);
    expect(problems({ ENCRYPTION_KEY: KEY, TRUST_PROXY: "10.0.0.0/33" })).toEqual([expect.stringMatching(/^TRUST_PROXY: "10.0.0.0\/33" has a bad prefix length \(0-32\)/)]);
  });

  it("checks the scheme of every URL setting, naming the setting and not the URL", () => {
    const urlSettings = Object.keys(configSchema.shape).filter((name) => name.endsWith("_URL"));
    expect(urlSettings.length).toBeGreaterThan(15);
    for (const name of urlSettings) {
      const found = problems({ ENCRYPTION_KEY: KEY, [name]: "htps://user:secret@host.example/api" });
      expect(found.filter((problem) => problem.startsWith(`${name}: `)), name).toHaveLength(1);
      expect(found.join("\n"), name).not.toContain("secret");
    }
    expect(problems({ ENCRYPTION_KEY: KEY, ERP_BASE_URL: "htps://erp.example" })).toEqual(["ERP_BASE_URL: must be a http:// or https:// URL"]);
    expect(problems({ ENCRYPTION_KEY: KEY, SMTP_URL: "https://mail.example" })).toEqual(["SMTP_URL: must be a smtp:// or smtps:// URL"]);
    expect(problems({ ENCRYPTION_KEY: KEY, PINECONE_HOST: "ftp://kb.example", S3_ENDPOINT: "minio:9000", S3_BUCKET: "b" })).toEqual([
      "PINECONE_HOST: must be a http:// or https:// URL",
      "S3_ENDPOINT: must be a http:// or https:// URL",
    ]);
    expect(problems({ ENCRYPTION_KEY: KEY, ERP_BASE_URL: "http://127.0.0.1:9000", SMTP_URL: "smtps://u:p@mail.example:465", PUBLIC_URL: "https://ops.example" })).toEqual([]);
  });

  it("stops the API at start-up naming a URL setting of the wrong scheme", async () => {
    const api = spawnEntry("packages/api/src/main.ts", [], { ERP_BASE_URL: "htps://erp.example" });
    expect((await api.exited()).code).toBe(78);
    expect(api.output()).toMatch(/Invalid configuration:\n\s+- ERP_BASE_URL: must be a http:\/\/ or https:\/\/ URL/);
  });

  it("stops the API at start-up with a message naming the variable", async () => {
    const api = spawnEntry("packages/api/src/main.ts", [], { PORT: "not-a-port" });
    const { code } = await api.exited();
    expect(code).toBe(78);
    expect(api.output()).toMatch(/Invalid configuration:\n\s+- PORT: /);
  });
});

describe("each process checks the settings it uses", () => {
  // Production as a worker host, a CLI session or a migration job has it: none of the API's HTTP settings.
  const production: Record<string, string> = { ...testEnv(), NODE_ENV: "production" };
  const HTTPS_PROBLEM = /REQUIRE_HTTPS: is on \(the default when NODE_ENV=production\) but TRUST_PROXY is off/;

  it("holds the API's HTTPS rule against the API alone", () => {
    expect(() => parseConfig(production, "api")).toThrow(HTTPS_PROBLEM);
    expect(parseConfig(production, "worker").NODE_ENV).toBe("production");
    expect(parseConfig(production, "cli").NODE_ENV).toBe("production");
  });

  it("reads only DATABASE_URL for a migration", () => {
    const { ENCRYPTION_KEY: _unused, ...withoutKey } = production;
    expect(parseConfig({ ...withoutKey, PORT: "eighty" }, "migrate")).toEqual({ DATABASE_URL: production.DATABASE_URL });
    expect(() => parseConfig({ DATABASE_URL: "postgres://x/y" }, "migrate")).toThrow(/DATABASE_URL: must be mysql:/);
    expect(() => parseConfig(withoutKey, "worker")).toThrow(/ENCRYPTION_KEY: is required/);
  });

  it("holds the storage rules against the processes that store objects", () => {
    const halfS3 = { ...testEnv(), S3_ENDPOINT: "http://minio:9000" };
    expect(() => parseConfig(halfS3, "api")).toThrow(/S3_BUCKET: is required when S3_ENDPOINT is set/);
    expect(() => parseConfig(halfS3, "worker")).toThrow(/S3_BUCKET: is required when S3_ENDPOINT is set/);
    expect(parseConfig(halfS3, "cli").S3_ENDPOINT).toBe("http://minio:9000");
  });

  it("runs pnpm db:migrate, pnpm cli and the worker with production settings the API alone needs unset, and stops the API", async () => {
    const migrate = spawnEntry("scripts/db-migrate.ts", [], { NODE_ENV: "production", ENCRYPTION_KEY: "" });
    const cli = spawnEntry("packages/api/src/cli/main.ts", ["options:get", "urgency_max_per_run"], { NODE_ENV: "production" });
    const api = spawnEntry("packages/api/src/main.ts", [], { NODE_ENV: "production", PORT: "0" });
    const worker = spawnEntry("packages/worker/src/main.ts", [], { NODE_ENV: "production", WORKER_QUEUES: "notifications" });
    try {
      expect(await migrate.exited(), migrate.output()).toEqual({ code: 0, signal: null });
      expect(migrate.output()).toMatch(/already up to date/);
      expect(await cli.exited(), cli.output()).toEqual({ code: 0, signal: null });
      expect(JSON.parse(cli.output().trim())).toEqual({ name: "urgency_max_per_run", value: 2 });
      expect(await api.exited()).toEqual({ code: 78, signal: null });
      expect(api.output()).toMatch(HTTPS_PROBLEM);
      await worker.waitFor(logged("workers started"), 60_000);
      expect(worker.output()).not.toMatch(/Invalid configuration/);
    } finally {
      worker.child.kill("SIGTERM");
      await worker.exited();
    }
  }, 120_000);
});

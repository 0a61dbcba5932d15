import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { closedPort, startApi, userWith } from "../support/api.ts";
import { testDatabaseUrl, testEnv } from "../support/env.ts";
import { logLines, ROOT, spawnEntry, type Spawned } from "../support/processes.ts";
import { TcpProxy } from "../support/tcp-proxy.ts";
import { until } from "../support/wait.ts";

/** The lines a process printed that are not JSON log lines: what a person reads. */
function plainLines(proc: Spawned): string[] {
  return proc.output().trim().split("\n").filter((line) => line && !line.startsWith("{"));
}

function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}

describe("start-up failures: one line naming what to fix", () => {
  it("names PORT when its port is taken, and exits 78", async () => {
    const taken = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => taken.once("listening", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const api = spawnEntry("packages/api/src/main.ts", [], { PORT: String(port), HOST: "127.0.0.1" });
      expect(await api.exited()).toEqual({ code: 78, signal: null });
      expect(plainLines(api)).toEqual([`Cannot listen on 127.0.0.1:${port}: it is already in use. Set PORT (or HOST) to a free one.`]);
      expect(api.output()).not.toMatch(/TypeError|\n\s{4}at /);
    } finally {
      taken.close();
    }
  });

  it("names DATABASE_URL and the address tried when nothing listens there, and exits 69", async () => {
    const port = await closedPort();
    const url = new URL(testDatabaseUrl());
    url.port = String(port);
    const api = spawnEntry("packages/api/src/main.ts", [], { DATABASE_URL: url.toString(), PORT: "0" });
    expect(await api.exited()).toEqual({ code: 69, signal: null });
    expect(plainLines(api)).toEqual([
      `Cannot reach the database at 127.0.0.1:${port} (DATABASE_URL): connection refused (nothing listens there). Start MariaDB or MySQL there (\`pnpm services\` runs a local one) or set DATABASE_URL.`,
    ]);
  });

  it("names DATABASE_URL and the user when the password is wrong, and exits 78", async () => {
    const worker = spawnEntry("packages/worker/src/main.ts", [], { DATABASE_URL: withPassword(testDatabaseUrl(), "not-the-password") });
    expect(await worker.exited()).toEqual({ code: 78, signal: null });
    const [line, ...rest] = plainLines(worker);
    expect(rest).toEqual([]);
    expect(line).toMatch(/^The database at 127\.0\.0\.1:\d+ refused user "mw" \(DATABASE_URL\): wrong password/);
    expect(worker.output()).not.toContain("not-the-password");
  });

  it("names REDIS_URL when Redis does not answer, and the worker exits 69 before taking any job", async () => {
    const port = await closedPort();
    const worker = spawnEntry("packages/worker/src/main.ts", [], { REDIS_URL: `redis://127.0.0.1:${port}` });
    expect(await worker.exited()).toEqual({ code: 69, signal: null });
    expect(plainLines(worker)).toEqual([
      `Cannot reach Redis at 127.0.0.1:${port} (REDIS_URL): connection refused (nothing listens there). Start Redis there (\`pnpm services\` runs a local one) or set REDIS_URL.`,
    ]);
    expect(logLines(worker, "workers started")).toEqual([]);
  });

  it("pnpm cli runs the same check: one line naming DATABASE_URL or REDIS_URL, no driver error, exit 69 or 78", async () => {
    const port = await closedPort();
    const closedDatabase = new URL(testDatabaseUrl());
    closedDatabase.port = String(port);
    const cli = (env: Record<string, string>) => spawnEntry("packages/api/src/cli/main.ts", ["order:show", "1"], env);
    const [unreachable, refused, noRedis] = [cli({ DATABASE_URL: closedDatabase.toString() }), cli({ DATABASE_URL: withPassword(testDatabaseUrl(), "not-the-password") }), cli({ REDIS_URL: `redis://127.0.0.1:${port}` })];
    expect(await unreachable.exited()).toEqual({ code: 69, signal: null });
    expect(plainLines(unreachable)).toEqual([
      `Cannot reach the database at 127.0.0.1:${port} (DATABASE_URL): connection refused (nothing listens there). Start MariaDB or MySQL there (\`pnpm services\` runs a local one) or set DATABASE_URL.`,
    ]);
    expect(await refused.exited()).toEqual({ code: 78, signal: null });
    expect(plainLines(refused)).toEqual([expect.stringMatching(/^The database at 127\.0\.0\.1:\d+ refused user "mw" \(DATABASE_URL\): wrong password/)]);
    expect(await noRedis.exited()).toEqual({ code: 69, signal: null });
    expect(plainLines(noRedis)).toEqual([
      `Cannot reach Redis at 127.0.0.1:${port} (REDIS_URL): connection refused (nothing listens there). Start Redis there (\`pnpm services\` runs a local one) or set REDIS_URL.`,
    ]);
    for (const run of [unreachable, refused, noRedis]) expect(run.output()).not.toMatch(/not-the-password|pool timeout|Prisma|\n\s{4}at /);
  });

  it("pnpm start prints the problem and no banner when the database cannot be reached", async () => {
    // 127.0.0.2 is this machine but not an address `pnpm start` would start a local MariaDB for.
    const url = new URL(testDatabaseUrl());
    url.hostname = "127.0.0.2";
    url.port = String(await closedPort());
    const child = spawn("pnpm", ["start"], { cwd: ROOT, env: { ...process.env, ...testEnv(), DATABASE_URL: url.toString(), PORT: "0" } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).not.toBe(0);
    expect(output).toContain(`Cannot reach the database at 127.0.0.2:${url.port} (DATABASE_URL)`);
    expect(output).not.toMatch(/Bull Board|\n\s{4}at /);
  }, 60_000);
});

describe("Redis going away after start-up", () => {
  it("costs the worker one warning and one recovery line, not a line per reconnect", async () => {
    const redisPort = Number(new URL(testEnv().REDIS_URL!).port || 6379);
    const proxy = await new TcpProxy(redisPort).start();
    const worker = spawnEntry("packages/worker/src/main.ts", [], { REDIS_URL: `redis://127.0.0.1:${proxy.port}`, WORKER_QUEUES: "notifications,webhooks" });
    try {
      await worker.waitFor(/"message":"workers started"/, 30_000);
      proxy.set("cut");
      await until(() => logLines(worker, "redis unreachable: jobs wait and /readyz answers 503 until it is back").length > 0, () => `a warning:\n${worker.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 3000)); // many reconnect attempts
      proxy.set("pass");
      await until(() => logLines(worker, "redis reachable again").length > 0, () => `the recovery line:\n${worker.output()}`, 20_000);
      expect(logLines(worker, "redis unreachable: jobs wait and /readyz answers 503 until it is back")).toHaveLength(1);
      expect(logLines(worker, "redis reachable again")).toHaveLength(1);
      expect(worker.output()).not.toMatch(/"message":"(worker error|redis error)"/);
    } finally {
      worker.child.kill("SIGKILL");
      await worker.exited();
      await proxy.stop();
    }
  }, 60_000);
});

describe("the API while Redis is away", () => {
  it("answers /readyz 503 and Bull Board's queue list promptly, with one warning", async () => {
    const redisPort = Number(new URL(testEnv().REDIS_URL!).port || 6379);
    const proxy = await new TcpProxy(redisPort).start();
    const api = await startApi({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
    const warnings: string[] = [];
    api.ctx.logger.on("data", (entry: { message: string }) => warnings.push(entry.message));
    try {
      const admin = await userWith(api, "manage_middleware");
      expect((await fetch(`${api.url}/admin/queues/api/queues`, { headers: { authorization: admin } })).status).toBe(200);
      proxy.set("cut");
      const started = Date.now();
      const ready = await fetch(`${api.url}/readyz`);
      expect(ready.status).toBe(503);
      const board = await fetch(`${api.url}/admin/queues/api/queues`, { headers: { authorization: admin } });
      expect(board.status).toBeGreaterThanOrEqual(500);
      expect(Date.now() - started).toBeLessThan(12_000);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      expect(warnings.filter((message) => /redis/i.test(message))).toEqual(["redis unreachable: jobs wait and /readyz answers 503 until it is back"]);
    } finally {
      proxy.set("pass");
      await api.close().catch(() => {});
      await proxy.stop();
    }
  }, 60_000);
});

import { spawn } from "node:child_process";
import { createPrisma, createRedis, parseConfig, Queues } from "@mw/platform";
import { createUser } from "@mw/domains/identity";
import { healthPingJob } from "@mw/domains/notifications";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSink } from "../fakes/http-sink.ts";
import { startBanner } from "../../scripts/support/start-banner.ts";
import { closedPort, uniqueLogin } from "../support/api.ts";
import { testEnv } from "../support/env.ts";
import { ROOT } from "../support/processes.ts";
import { settled, until } from "../support/wait.ts";

// `pnpm start` in a terminal: Ctrl-C sends SIGINT to the whole foreground
// process group (pnpm, the start script, the API and the worker at once).
let sink: HttpSink;
let queues: Queues;
const redis = createRedis(process.env.REDIS_URL!);

beforeAll(async () => {
  sink = await new HttpSink().start();
  queues = new Queues(redis, process.env.QUEUE_PREFIX!);
});
afterAll(async () => {
  await sink.stop();
  await queues.close();
  await redis.quit();
});

describe("pnpm start", () => {
  it("says to create an admin only while no user holds manage_options or manage_middleware", () => {
    const config = parseConfig({ ENCRYPTION_KEY: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0", PORT: "3456" });
    expect(startBanner(config, false)).toContain("Create an admin (prints an application password for HTTP Basic, once):\n    pnpm cli user:create --login admin --capabilities manage_middleware,manage_options");
    expect(startBanner(config, true)).not.toContain("Create an admin");
    expect(startBanner(config, true)).toContain("    export API=http://localhost:3456\n");
  });

  it("drains the job in flight on one Ctrl-C and exits 0", async () => {
    const prisma = createPrisma(process.env.DATABASE_URL!);
    await createUser({ prisma }, { login: uniqueLogin("admin"), capabilities: ["manage_options"] }).finally(() => prisma.$disconnect());
    const port = await closedPort();
    const child = spawn("pnpm", ["start"], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, ...testEnv(), PORT: String(port), LOG_STDOUT: "true", WORKER_QUEUES: "notifications", SHUTDOWN_TIMEOUT_MS: "15000" },
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(`${code ?? signal}`)));
    try {
      await until(() => /"message":"workers started"/.test(output) && /"message":"api listening"/.test(output), () => `the platform to start:\n${output}`, 45_000);
      // The banner: the console, the line for a second terminal at the port in use, and no "Create an admin" once one exists.
      await until(() => output.includes("export API="), () => `the banner:\n${output}`);
      expect(output).toContain(`  Console     http://localhost:${port}/console\n`);
      expect(output).toContain(`    export API=http://localhost:${port}\n`);
      expect(output).not.toContain("Create an admin");
      sink.delayMs = 3000;
      const job = await queues.add(healthPingJob, { url: sink.url });
      await until(() => sink.requests.length === 1, () => "the health ping to be in flight");

      process.kill(-child.pid!, "SIGINT");
      expect(await exited, output).toBe("0");
      expect((await settled(queues.get("notifications"), job)).finishedOn).toBeDefined();
      expect(await queues.get("notifications").getJobState(job.id!)).toBe("completed");
      expect(output).not.toMatch(/second signal|ELIFECYCLE/);
      expect(output.match(/"message":"shut down cleanly"/g)).toHaveLength(2);
    } finally {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // The whole group has exited.
      }
    }
  }, 90_000);

  it("starts no MariaDB for a DATABASE_URL on another port where nothing answers: exit 69 and one line naming it", async () => {
    const port = await closedPort();
    const child = spawn("pnpm", ["start"], {
      cwd: ROOT,
      detached: true,
      env: { ...process.env, ...testEnv(), DATABASE_URL: `mysql://mw:never-printed@127.0.0.1:${port}/mw`, PORT: String(await closedPort()) },
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(`${code ?? signal}`)));
    try {
      const code = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve("still running"), 30_000))]);
      expect(code, output).toBe("69");
      expect(output.split("\n").filter((line) => line.includes("DATABASE_URL"))).toEqual([
        `DATABASE_URL: nothing answers at 127.0.0.1:${port} (mw); pnpm start starts a local MariaDB only for the default address 127.0.0.1:3306`,
      ]);
      expect(output).not.toMatch(/never-printed|started MariaDB/);
    } finally {
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // The whole group has exited.
      }
    }
  }, 60_000);
});

import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { createRedis, unlinkMatching } from "@mw/platform";
import { afterAll, describe, expect, it } from "vitest";
import { dropDatabase } from "../../scripts/migrations/apply.ts";
import { connectAsAdministrator } from "../../scripts/services/database-user.ts";
import { closedPort } from "../support/api.ts";
import { freshCheckout, userEnvironment } from "../support/checkout.ts";
import { testBaseDatabaseUrl, testEnv } from "../support/env.ts";
import { until } from "../support/wait.ts";

// The README's two commands, `pnpm install` and `pnpm start`, in a fresh checkout on a
// machine whose MariaDB runs (as after `apt-get install mariadb-server`) but has no user
// for the platform yet.
const server = new URL(testBaseDatabaseUrl());
const admin = await connectAsAdministrator(Number(server.port || 3306));
const USER = `mw_first_${process.pid}`;
const PREFIX = `mwfirst${process.pid}`;
const databaseUrl = (() => {
  const url = new URL(server);
  url.username = USER;
  url.password = "first-start";
  url.pathname = `/${USER}`;
  return url.toString();
})();

async function dropUser(): Promise<void> {
  for (const host of ["localhost", "127.0.0.1", "::1"]) await admin!.conn.query("DROP USER IF EXISTS ?@?", [USER, host]);
}

function run(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { cwd, env: userEnvironment({}), stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.on("exit", (code) => resolve({ code, output })));
}

afterAll(async () => {
  if (!admin) return;
  await dropDatabase(databaseUrl).catch(() => {});
  await dropUser();
  await admin.conn.end();
  const redis = createRedis(testEnv().REDIS_URL!);
  await unlinkMatching(redis, `${PREFIX}:*`);
  await redis.quit();
});

describe.skipIf(!admin)("pnpm install && pnpm start from a fresh checkout, MariaDB running without the user", () => {
  it("creates the user, says so in one line, migrates and reaches ready", async () => {
    await dropUser();
    const dir = freshCheckout("mw-first-start-");
    try {
      const install = await run("pnpm", ["install", "--offline", "--frozen-lockfile"], dir);
      expect(install.code, install.output).toBe(0);

      const port = await closedPort();
      const child = spawn("pnpm", ["start"], {
        cwd: dir,
        detached: true, // its own process group, as a terminal's foreground job
        env: userEnvironment({ DATABASE_URL: databaseUrl, REDIS_URL: testEnv().REDIS_URL!, QUEUE_PREFIX: PREFIX, PORT: String(port), HOST: "127.0.0.1" }),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<string>((resolve) => child.on("exit", (code, signal) => resolve(`${code ?? signal}`)));
      try {
        let status = "";
        await until(
          async () => {
            if (child.exitCode !== null) throw new Error(`pnpm start exited (${child.exitCode}):\n${output}`);
            const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
            status = res ? (((await res.json()) as { status: string }).status ?? "") : "";
            return status === "ready";
          },
          () => `/readyz to answer ready (last: ${status || "no answer"}):\n${output}`,
          240_000,
        );
        const created = output.split("\n").filter((line) => line.startsWith("created database user"));
        expect(created).toEqual([`created database user "${USER}" with all privileges on ${USER} and ${USER}_* (as ${admin!.login} over ${admin!.socket})`]);
        expect(output).toMatch(new RegExp(`database ${USER}: \\d+ migration\\(s\\) applied`));
        expect(output).toContain("wrote a new ENCRYPTION_KEY to .env");
        process.kill(-child.pid!, "SIGINT");
        expect(await exited, output).toBe("0");
      } finally {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // The whole group has exited.
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);
});

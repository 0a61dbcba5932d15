import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { createRedis, unlinkMatching } from "@mw/platform";
import { afterAll, describe, expect, it } from "vitest";
import { dropDatabase } from "../../scripts/migrations/apply.ts";
import { closedPort } from "../support/api.ts";
import { freshCheckout, userEnvironment } from "../support/checkout.ts";
import { testDatabaseUrl, testEnv } from "../support/env.ts";
import { ROOT } from "../support/processes.ts";

// The README's quick start, run as a newcomer would: every ```sh block between the
// quick-start markers, in order, in one shell, in a fresh checkout, against a database
// and a queue prefix of its own. The block that is only `pnpm start` is the terminal
// left running: here it runs in the background until its banner says the API and the
// worker are up. The first command that fails fails the test, named in the message.
const START_BLOCK = "pnpm start";
const DATABASE_URL = testDatabaseUrl(`quickstart_${process.pid}`);
const PREFIX = `mwqs${process.pid}`;

/** The shell blocks of the quick start, in order. */
function quickStartBlocks(readme: string): string[] {
  const begin = readme.indexOf("<!-- quick-start:begin -->");
  const end = readme.indexOf("<!-- quick-start:end -->");
  if (begin < 0 || end < begin) throw new Error("README.md has no <!-- quick-start:begin --> ... <!-- quick-start:end --> section");
  return [...readme.slice(begin, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]!.trimEnd());
}

/** One script: stop at the first failing command and name it; the start block in the background, waited for. */
function script(blocks: string[]): string {
  const lines = ["set -eE -o pipefail", `trap 'echo "QUICK START FAILED at: $BASH_COMMAND" >&2' ERR`, "set -x"];
  for (const block of blocks) {
    if (block === START_BLOCK) {
      lines.push(
        'pnpm start > "$QS_START_LOG" 2>&1 &',
        "QS_START_PID=$!",
        'until grep -q "API docs" "$QS_START_LOG"; do kill -0 "$QS_START_PID" || { cat "$QS_START_LOG" >&2; false; }; sleep 1; done',
      );
    } else {
      lines.push(block);
    }
  }
  return `${lines.join("\n")}\n`;
}

afterAll(async () => {
  await dropDatabase(DATABASE_URL).catch(() => {});
  const redis = createRedis(testEnv().REDIS_URL!);
  await unlinkMatching(redis, `${PREFIX}:*`);
  await redis.quit();
});

describe("the README's quick start", () => {
  const blocks = quickStartBlocks(readFileSync(path.join(ROOT, "README.md"), "utf8"));

  it("has the start block and stays short", () => {
    expect(blocks).toContain(START_BLOCK);
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(readme.slice(readme.indexOf("## Quick start"), readme.indexOf("<!-- quick-start:end -->")).split("\n").length).toBeLessThanOrEqual(150);
    expect(readme).not.toMatch(/\(spec \d|\.\.\/shared/);
  });

  it("runs top to bottom in a fresh checkout", async () => {
    const dir = freshCheckout("mw-quick-start-");
    const port = await closedPort();
    const child = spawn("bash", ["-c", script(blocks)], {
      cwd: dir,
      detached: true, // its own process group: the platform it starts goes with it
      env: userEnvironment({
        DATABASE_URL,
        REDIS_URL: testEnv().REDIS_URL!,
        QUEUE_PREFIX: PREFIX,
        PORT: String(port),
        HOST: "127.0.0.1",
        QS_START_LOG: path.join(dir, "platform.log"),
        // The machine's pnpm store holds every package; the test must not depend on the registry.
        npm_config_offline: "true",
      }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    try {
      const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
      const failed = /QUICK START FAILED at: (.*)/.exec(output)?.[1];
      expect({ code, failed }, output.slice(-6000)).toEqual({ code: 0, failed: undefined });
      // What the steps did, as the newcomer would see it in the console and Bull Board.
      expect(output).toMatch(/"order_number":"100045"/);
      expect(output).toMatch(/"engine":"rules"/);
      expect(output).toContain(`sign in at http://localhost:${port}/console as admin`);
    } finally {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // The whole group has exited.
      }
      rmSync(dir, { recursive: true, force: true });
    }
  }, 3_600_000);
});

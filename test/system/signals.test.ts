import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { testEnv } from "../support/env.ts";
import { alive, ROOT } from "../support/processes.ts";
import { until } from "../support/wait.ts";

// The production entry points (`pnpm start:worker`, `pnpm start:api`) run the
// compiled JavaScript with node. Signals must reach that process and nothing
// may outlive the command that started it.
beforeAll(() => {
  execFileSync("pnpm", ["build"], { cwd: ROOT, stdio: "ignore" });
}, 240_000);

const started: ChildProcess[] = [];
afterEach(() => {
  for (const child of started.splice(0)) {
    for (const pid of descendants(child.pid!)) process.kill(pid, "SIGKILL");
    child.kill("SIGKILL");
  }
});

function descendants(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).split("\n").filter(Boolean).map(Number);
  } catch {
    // ps exits 1 when there are none.
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

async function startScript(script: string, env: Record<string, string>): Promise<{ pnpm: ChildProcess; node: number; output: () => string }> {
  const pnpm = spawn("pnpm", [script], { cwd: ROOT, env: { ...process.env, ...testEnv(), LOG_STDOUT: "true", SHUTDOWN_TIMEOUT_MS: "5000", ...env } });
  started.push(pnpm);
  let output = "";
  pnpm.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  pnpm.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await until(() => /"message":"(workers started|api listening)"/.test(output), () => `${script} to start; output:\n${output}`, 30_000);
  const node = descendants(pnpm.pid!).find((pid) => execFileSync("ps", ["-o", "args=", "-p", String(pid)], { encoding: "utf8" }).startsWith("node "));
  expect(node, `a node process under ${script}`).toBeDefined();
  return { pnpm, node: node!, output: () => output };
}

describe("production entry points", () => {
  for (const [script, env] of [
    ["start:worker", { WORKER_QUEUES: "notifications" }],
    ["start:api", { PORT: "0" }],
  ] as const) {
    it(`${script}: SIGTERM to pnpm stops the node process too, cleanly, within the shutdown timeout`, async () => {
      const { pnpm, node, output } = await startScript(script, env);
      const stopped = Date.now();
      pnpm.kill("SIGTERM");
      await until(() => !alive(node), () => `node ${node} to exit; output:\n${output()}`, 10_000);
      expect(Date.now() - stopped).toBeLessThan(5000 + 1500);
      expect(output()).toMatch(/"message":"shut down cleanly"/);
    }, 60_000);

    it(`${script}: runs node itself, which exits 0 on SIGTERM`, async () => {
      const { pnpm, node, output } = await startScript(script, env);
      const exited = new Promise<number | null>((resolve) => pnpm.on("exit", (code) => resolve(code)));
      process.kill(node, "SIGTERM");
      expect(await exited).toBe(0);
      expect(alive(node)).toBe(false);
      expect(output()).toMatch(/"message":"shut down cleanly"/);
    }, 60_000);
  }
});

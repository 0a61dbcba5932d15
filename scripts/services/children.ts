// Server processes started from the machine's own binaries (MariaDB, Redis
// nodes and sentinels) for `pnpm services`, the tests and the benches.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";

const READY_TIMEOUT_MS = 30_000;

/** The first of the candidates (names on PATH, or absolute paths) that exists here. */
export function binary(candidates: string[]): string | undefined {
  for (const name of candidates) {
    if (name.includes("/")) {
      if (existsSync(name)) return name;
    } else if (spawnSync("sh", ["-c", `command -v ${name}`]).status === 0) {
      return name;
    }
  }
  return undefined;
}

/** Polls `ready` every 200 ms until it answers true; fails when the child exits or 30 s pass. */
export async function waitUntil(ready: () => Promise<boolean>, child: ChildProcess, what: string, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}) while starting; see ${logFile}`);
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what} did not answer within ${READY_TIMEOUT_MS / 1000} s; see ${logFile}`);
}

/** Starts a server with its output appended to `logFile`. */
export function launch(command: string, args: string[], logFile: string): ChildProcess {
  const out = openSync(logFile, "a");
  // Its own process group: the terminal's Ctrl-C must not stop the services
  // while the API and worker still drain into them; stop() ends them after.
  const child = spawn(command, args, { stdio: ["ignore", out, out], detached: true });
  // The child holds its own copy of the descriptor; ours would leak with every (re)start.
  closeSync(out);
  return child;
}

/** SIGTERM, then SIGKILL after 20 s: servers get to finish writing their data. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}

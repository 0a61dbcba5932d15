import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { entryBuilt } from "../../scripts/support/built.js";
import { testEnv } from "./env.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/** What a test reads of a running worker or other entry point: everything it printed so far. */
export interface Output {
  output(): string;
  /** Resolves when the output matches, rejects after `timeoutMs`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
}

export interface Spawned extends Output {
  child: ChildProcess;
  exited(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Collects text as it arrives (`append`) and answers `waitFor` as soon as it matches. */
export function collectOutput(): Output & { append(text: string): void } {
  let buffer = "";
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  return {
    append(text) {
      buffer += text;
      for (const waiter of [...waiters]) {
        if (waiter.pattern.test(buffer)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    },
    output: () => buffer,
    waitFor(pattern, timeoutMs = 60_000) {
      if (pattern.test(buffer)) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output:\n${buffer}`)), timeoutMs);
        waiters.push({
          pattern,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
  };
}

/** The entry points production runs compiled, each by the package.json script that runs it. */
const COMPILED_BY: Record<string, string> = {
  "packages/api/src/main.ts": "start:api",
  "packages/worker/src/main.ts": "worker",
  "packages/api/src/cli/main.ts": "cli",
};

/**
 * How production runs `entry` (its package.json script's node flags and file) when `pnpm build` has
 * compiled every source it loads since that source last changed: a process then starts in about
 * two thirds of the time tsx takes, as `pnpm cli` does (scripts/cli.js). Otherwise, and for other
 * entry points, the sources under tsx.
 */
function nodeArgs(entry: string, nodeFlags: string[]): string[] {
  const script = COMPILED_BY[entry];
  if (script && !nodeFlags.length && entryBuilt(ROOT, entry.split("/")[1]!)) {
    const scripts = (JSON.parse(readFileSync(`${ROOT}/package.json`, "utf8")) as { scripts: Record<string, string> }).scripts;
    return scripts[script]!.split(" ").slice(1);
  }
  return ["--import", "tsx", ...nodeFlags, entry];
}

/** Runs one of our entry points as a real child process with the test environment: compiled when built (nodeArgs), else its sources. */
export function spawnEntry(entry: string, args: string[] = [], env: Record<string, string> = {}, nodeFlags: string[] = []): Spawned {
  const child = spawn(process.execPath, [...nodeArgs(entry, nodeFlags), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...testEnv(), LOG_STDOUT: "true", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { append, output, waitFor } = collectOutput();
  const onData = (chunk: Buffer) => append(chunk.toString());
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output, waitFor, exited: () => exit };
}

/** Matches one JSON log line of a child by its message. */
export function logged(message: string): RegExp {
  return new RegExp(`"message":"${message}"`);
}

/** The child's JSON log lines with this message, parsed. */
export function logLines(proc: Output, message: string): Record<string, unknown>[] {
  return proc
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.message === message);
}

/** True while a process with this pid exists (signal 0 only checks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `pnpm cli ARGS` run in this process (as the command line runs it): its exit code, and what it printed on stdout and stderr apart. */
export async function runCli(...args: string[]): Promise<CliRun> {
  const { main } = await import("../../packages/api/src/cli/main.ts");
  let stdout = "";
  let stderr = "";
  const code = await main(args, { out: (text) => (stdout += `${text}\n`), err: (text) => (stderr += `${text}\n`) });
  return { code, stdout, stderr };
}

/** `pnpm cli ARGS` as its own process, for what only a process shows (its start, its exit, its environment). */
export async function runCliProcess(...args: string[]): Promise<CliRun> {
  return collectCli(spawnEntry("packages/api/src/cli/main.ts", args));
}

/** runCliProcess, with the CommonJS packages the process loaded (test/support/loaded-packages.ts). */
export async function runCliProcessLoading(...args: string[]): Promise<CliRun & { packages: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), "mw-cli-loaded-"));
  try {
    const file = join(dir, "packages.json");
    const run = await collectCli(spawnEntry("packages/api/src/cli/main.ts", args, { LOADED_PACKAGES_FILE: file }, ["--import", "./test/support/loaded-packages.ts"]));
    return { ...run, packages: JSON.parse(readFileSync(file, "utf8")) as string[] };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function collectCli(run: Spawned): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  run.child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  run.child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const { code } = await run.exited();
  return { code, stdout, stderr };
}

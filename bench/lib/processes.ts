import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { WORKER_NODE_FLAGS } from "../../packages/worker/src/runtime/node-flags.ts";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Starts an entry point as a child process and resolves once `readyUrl` answers: TypeScript
 * through tsx, a `.mjs` file on node alone. `nodeArgs` (e.g. from BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof") go to the child's node.
 */
export async function startProcess(entry: string, env: Record<string, string>, readyUrl: string, nodeArgs: string[] = []): Promise<ChildProcess> {
  const loader = entry.endsWith(".mjs") ? [] : ["--import", "tsx"];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let attempt = 0; attempt < 300; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode} before it was ready`);
    const ok = await fetch(readyUrl).then((res) => res.status < 500, () => false);
    if (ok) return child;
    await sleep(200);
  }
  child.kill("SIGKILL");
  throw new Error(`${entry} did not answer ${readyUrl} within 60 s`);
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise((resolve) => {
    child.on("exit", resolve);
    child.kill("SIGTERM");
  });
}

/**
 * CPU time (user + system, ms) a child has used so far, from /proc (Linux,
 * 100 ticks a second; undefined elsewhere). Per request, it moves far less
 * with the rest of a shared machine's load than latency percentiles do.
 */
export function cpuMillis(child: ChildProcess): number | undefined {
  try {
    const fields = readFileSync(`/proc/${child.pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
}

/**
 * Starts a worker process (packages/worker/src/main.ts) and resolves once it
 * says it is ready: its queues are consumed and its schedules are in place.
 * A worker has no HTTP port to poll, so readiness comes over the IPC channel.
 */
export async function startWorker(env: Record<string, string | undefined>, nodeArgs: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...WORKER_NODE_FLAGS, ...nodeArgs, "--import", "tsx", "packages/worker/src/main.ts"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  await new Promise<void>((resolve, reject) => {
    // Generous: four workers compiling their TypeScript at once on a loaded two-core machine took over 30 s.
    const timer = setTimeout(() => reject(new Error("the worker did not say it was ready within 120 s")), 120_000);
    child.once("message", () => {
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the worker exited with ${code} before it was ready`));
    });
  });
  // The channel is only for the ready message; left open it would keep this process alive.
  child.disconnect();
  return child;
}

/** Resident memory (MB) of a child now, from /proc (Linux; undefined elsewhere or once it has exited). */
export function rssMegabytes(child: ChildProcess): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Math.round(Number(kb) / 1024);
  } catch {
    return undefined;
  }
}

/**
 * Samples a child's resident memory every `everyMs` until stopped and answers
 * the peak in MB: what the process held under load, which a reading taken
 * after the load has ended would understate once GC has run.
 */
export function sampleRss(child: ChildProcess, everyMs = 250): { stop(): number | undefined } {
  let peak: number | undefined;
  const sample = () => {
    const now = rssMegabytes(child);
    if (now !== undefined) peak = Math.max(peak ?? 0, now);
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * Starts a TypeScript entry point as a child process and resolves once `readyUrl` answers.
 * `nodeArgs` (e.g. from BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof") go to the child's node.
 */
export async function startProcess(entry: string, env: Record<string, string>, readyUrl: string, nodeArgs: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", entry], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`${entry} exited with ${child.exitCode} before it was ready`);
    const ok = await fetch(readyUrl).then((res) => res.status < 500, () => false);
    if (ok) return child;
    await sleep(200);
  }
  child.kill("SIGKILL");
  throw new Error(`${entry} did not answer ${readyUrl} within 20 s`);
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

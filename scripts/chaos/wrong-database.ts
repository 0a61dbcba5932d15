import { createRedis, Queues, type QueueName } from "@mw/platform";
import { spawn } from "node:child_process";
import { ROOT } from "../support/platform-process.ts";

/** How a worker on the wrong database ended: its exit code and the lines it printed for a person. */
export interface Refusal {
  code: number | null;
  lines: string[];
}

/**
 * Runs a worker whose DATABASE_URL names another database (as a mistyped setting, or a staging worker
 * pointed at production Redis, would) with the platform's Redis and QUEUE_PREFIX, until it exits: it
 * must refuse to start rather than take the prefix's jobs. One that starts is stopped after `limitMs`.
 */
export async function runWorkerOnOtherDatabase(environment: Record<string, string>, databaseUrl: string, limitMs = 120_000): Promise<Refusal> {
  const child = spawn(process.execPath, ["--import", "tsx", "packages/worker/src/main.ts"], { cwd: ROOT, env: { ...process.env, ...environment, DATABASE_URL: databaseUrl }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const limit = setTimeout(() => child.kill("SIGKILL"), limitMs);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  clearTimeout(limit);
  return { code, lines: output.split("\n").filter((line) => line && !line.startsWith("{")) };
}

/** The failed jobs of these queues now. */
export async function failedJobs(redisUrl: string, prefix: string, names: QueueName[]): Promise<number> {
  const redis = createRedis(redisUrl, { name: "mw-chaos-failed" });
  const queues = new Queues(redis, prefix);
  try {
    const counts = await Promise.all(names.map((name) => queues.get(name).getFailedCount()));
    return counts.reduce((sum, count) => sum + count, 0);
  } finally {
    await queues.close();
    await redis.quit().catch(() => redis.disconnect());
  }
}

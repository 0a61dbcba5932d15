import { randomUUID } from "node:crypto";
import { createRedis } from "@mw/platform";
import { UnrecoverableError, Worker, type Queue } from "bullmq";
import { until } from "./wait.ts";

/**
 * Makes the queue's only waiting job stall twice for real: a worker takes it
 * and never renews its lock (as a SIGKILLed worker would), twice. BullMQ's
 * stalled check then marks it, and the next worker to take it fails it with
 * "job stalled more than allowable limit" without running it.
 */
export async function stallTwice(queue: Queue, jobId: string): Promise<void> {
  const connection = createRedis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", { blocking: true });
  const options = { connection, prefix: queue.opts.prefix, lockDuration: 100, stalledInterval: 100, maxStalledCount: 1 };
  const dying = new Worker(queue.name, null, { ...options, autorun: false });
  const next = new Worker(queue.name, async () => {
    throw new Error("a job that stalled twice must not run again");
  }, { ...options, autorun: false });
  try {
    await dying.startStalledCheckTimer();
    for (let taken = 0; taken < 2; taken += 1) {
      await until(async () => (await queue.getJobState(jobId)) === "waiting", () => `job ${jobId} back in the queue`);
      const job = await dying.getNextJob(randomUUID(), { block: false });
      if (job?.id !== jobId) throw new Error(`expected to take ${jobId}, took ${job?.id}`);
    }
    await until(async () => (await queue.getJobState(jobId)) === "waiting", () => `job ${jobId} back in the queue`);
    void next.run();
    await until(async () => (await queue.getJobState(jobId)) === "failed", () => `job ${jobId} failed as stalled`);
  } finally {
    await Promise.all([dying.close(true), next.close(true)]);
    connection.disconnect();
  }
}

/** Fails the queue's only waiting job the way a permanent failure does: BullMQ's UnrecoverableError on its first attempt. */
export async function failForGood(queue: Queue, jobId: string): Promise<void> {
  const connection = createRedis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", { blocking: true });
  const worker = new Worker(
    queue.name,
    async () => {
      throw new UnrecoverableError("permanent: the payload names no merchant");
    },
    { connection, prefix: queue.opts.prefix },
  );
  try {
    await until(async () => (await queue.getJobState(jobId)) === "failed", () => `job ${jobId} failed for good`);
  } finally {
    await worker.close();
    connection.disconnect();
  }
}

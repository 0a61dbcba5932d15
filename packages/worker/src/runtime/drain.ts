import { randomUUID } from "node:crypto";
import { createRedis, type QueueName, type Connections } from "@mw/platform";
import { DelayedError, Worker } from "bullmq";
import type { WorkerCatalog } from "./processor.ts";
import { runJob } from "./run-job.ts";

export interface DrainResult {
  queue: QueueName;
  completed: number;
  failed: number;
  /** Jobs that put themselves back for later (e.g. a ticket inside its urgency gate). */
  delayed: number;
}

/**
 * Drain mode (the spec's cron entry point): takes at most `limit` jobs from
 * each queue, one at a time, stops early when a queue has nothing ready, and
 * returns. Jobs are fetched by hand so the count is exact: a regular Worker
 * may already hold the next job when the limit is reached.
 */
export async function drain(connections: Connections, catalog: WorkerCatalog, limits: Map<QueueName, number>, workerId: string): Promise<DrainResult[]> {
  const { config, logger } = connections;
  const connection = createRedis(config.REDIS_URL, { blocking: true, name: `mw-drain-${workerId}` });
  const results: DrainResult[] = [];
  try {
    for (const [queue, limit] of limits) {
      const worker = new Worker(queue, null, {
        connection,
        prefix: connections.queues.prefixOf(queue),
        lockDuration: config.WORKER_LOCK_DURATION_MS,
        autorun: false,
      });
      const result: DrainResult = { queue, completed: 0, failed: 0, delayed: 0 };
      try {
        while (result.completed + result.failed + result.delayed < limit) {
          const token = `${workerId}.${randomUUID()}`;
          const job = await worker.getNextJob(token, { block: false });
          if (!job) break;
          // A manually fetched job's lock is not renewed by BullMQ: keep it alive while we work.
          const renew = setInterval(() => {
            job.extendLock(token, config.WORKER_LOCK_DURATION_MS).catch((error: unknown) => logger.warn("lock renewal failed", { error }));
          }, config.WORKER_LOCK_DURATION_MS / 2);
          try {
            const value = await runJob(connections, catalog, job, token);
            await job.moveToCompleted(value, token, false);
            result.completed += 1;
          } catch (error) {
            if (error instanceof DelayedError) {
              result.delayed += 1;
              continue;
            }
            await job.moveToFailed(error as Error, token, false);
            result.failed += 1;
          } finally {
            clearInterval(renew);
          }
        }
      } finally {
        await worker.close();
      }
      logger.info("queue drained", { worker_id: workerId, ...result, limit });
      results.push(result);
    }
  } finally {
    await connection.quit().catch(() => connection.disconnect());
  }
  return results;
}

import { createRedis, workerConcurrency, type QueueName, type Connections } from "@mw/platform";
import { hostname } from "node:os";
import { Worker } from "bullmq";
import type { WorkerCatalog } from "./processor.ts";
import { runJob } from "./run-job.ts";

export interface RunningWorkers {
  workers: Worker[];
  /** Stops taking jobs and waits for the active ones (bounded by the caller). */
  close(): Promise<void>;
}

/**
 * One BullMQ Worker per queue in WORKER_QUEUES. Stalled-job recovery stays on:
 * a killed process's active jobs return to the queue once their lock expires.
 */
export function startWorkers(connections: Connections, catalog: WorkerCatalog, queues: QueueName[] = connections.config.WORKER_QUEUES): RunningWorkers {
  const { config, logger } = connections;
  const connection = createRedis(config.REDIS_URL, { blocking: true, name: "mw-worker" });
  connections.redisOutage.watch(connection);
  const workers = queues.map((queue) => {
    const worker = new Worker(queue, (job, token) => runJob(connections, catalog, job, token), {
      connection,
      prefix: connections.queues.prefixOf(queue),
      // Stored on each job it takes: GET /queue shows which worker holds a job.
      name: `${hostname()}:${process.pid}`,
      concurrency: workerConcurrency(config, queue),
      lockDuration: config.WORKER_LOCK_DURATION_MS,
      stalledInterval: config.WORKER_STALLED_INTERVAL_MS,
      maxStalledCount: 1,
    });
    worker.on("error", (error) => connections.redisOutage.explains(error) || logger.error("worker error", { queue, error: error.message }));
    worker.on("stalled", (jobId) => logger.warn("job stalled, returned to the queue", { queue, job_id: jobId }));
    return worker;
  });
  logger.info("workers started", { queues, concurrency: Object.fromEntries(queues.map((q) => [q, workerConcurrency(config, q)])) });
  return {
    workers,
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await connection.quit().catch(() => connection.disconnect());
    },
  };
}

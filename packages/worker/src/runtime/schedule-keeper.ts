import type { Connections, QueueName } from "@mw/platform";
import type { WorkerCatalog } from "./processor.ts";
import { ensureSchedules, reconcileSchedules } from "./schedules.ts";

export interface ScheduleKeeper {
  stop(): void;
}

/**
 * Job schedulers live only in Redis: a Redis that restarts empty (no
 * persistence, a failover, a flush) loses them, and nothing but a worker
 * re-creates them. So each worker re-creates its queues' schedules when it
 * starts, whenever its Redis connection comes back, whenever a Redis outage
 * ends (on a cluster the connection stays up while one shard restarts empty,
 * and only the outage detector sees it come back), and every `intervalMs`
 * besides (a flush does not drop the connection). Upserts are idempotent, so
 * many workers doing it at once still give one scheduler per job.
 */
export async function keepSchedules(connections: Connections, catalog: WorkerCatalog, served: QueueName[], intervalMs: number): Promise<ScheduleKeeper> {
  const { redis, queues, logger, redisOutage } = connections;
  let running: Promise<void> | undefined;
  // A reason that arrives while a pass runs gets a pass of its own: that one may have read Redis before it was emptied.
  let queued: string | undefined;
  const reconcile = (why: string): Promise<void> => {
    queued = why;
    running ??= (async () => {
      while (queued) {
        const reason = queued;
        queued = undefined;
        try {
          await ensureSchedules(queues, served, connections.config);
          await reconcileSchedules(connections, catalog, served);
          logger.info("schedules reconciled", { why: reason });
        } catch (error) {
          logger.warn("schedules could not be reconciled, will try again", { why: reason, error: (error as Error).message });
        }
      }
      running = undefined;
    })();
    return running;
  };
  let lost = false;
  const onClose = () => {
    lost = true;
  };
  const onReady = () => {
    if (!lost) return;
    lost = false;
    void reconcile("redis reconnected");
  };
  const onRecovered = () => void reconcile("redis outage ended");
  // Listening before the first pass: a connection lost while it runs still counts.
  redis.on("close", onClose);
  redis.on("ready", onReady);
  redisOutage.on("recovered", onRecovered);
  const timer = setInterval(() => void reconcile("periodic"), intervalMs);
  timer.unref();
  await reconcile("worker started");
  return {
    stop() {
      clearInterval(timer);
      redis.off("close", onClose);
      redis.off("ready", onReady);
      redisOutage.off("recovered", onRecovered);
    },
  };
}

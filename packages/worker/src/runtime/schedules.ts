import { repeatOf, type Config, type Connections, type QueueName, type Queues } from "@mw/platform";
import { SCHEDULED_JOBS } from "@mw/domains/schedules";
import type { WorkerCatalog } from "./processor.ts";

/**
 * Each scheduled job of the served queues (SCHEDULED_JOBS, which a test keeps
 * equal to the catalog's) as a BullMQ job scheduler named after its job.
 * Upserting a scheduler is idempotent, so every worker start may do it: two
 * workers still give one scheduler and one pending job per entry.
 */
export async function ensureSchedules(queues: Queues, served: QueueName[], config: Config): Promise<void> {
  for (const job of SCHEDULED_JOBS) {
    if (!job.schedule || !served.includes(job.queue)) continue;
    await queues.get(job.queue).upsertJobScheduler(job.name, repeatOf(job.schedule, config), { name: job.name, data: {} });
  }
}

/**
 * The served jobs' own reconcilers (per-site schedulers that follow the
 * database). One that fails is logged, not fatal: its schedulers stay as they
 * were until the next run.
 */
export async function reconcileSchedules(connections: Pick<Connections, "prisma" | "queues" | "logger">, catalog: WorkerCatalog, served: QueueName[]): Promise<void> {
  const { prisma, queues, logger } = connections;
  for (const { job, reconcileSchedules: reconcile } of catalog.entries()) {
    if (!reconcile || !served.includes(job.queue)) continue;
    await reconcile(prisma, queues).then(
      (result) => logger.info(`${job.queue} schedules reconciled`, { job: job.name, ...result }),
      (error: unknown) => logger.error(`${job.queue} schedules could not be reconciled`, { job: job.name, error }),
    );
  }
}

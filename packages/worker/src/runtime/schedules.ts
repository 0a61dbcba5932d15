import type { QueueName, Queues } from "@mw/shared";
import { JOBS } from "../jobs/index.ts";

/**
 * The catalog's periodic jobs as BullMQ job schedulers, one per job, named
 * after it. Upserting a scheduler is idempotent, so every worker start may do
 * it: two workers still give one scheduler and one pending job per entry.
 */
export async function ensureSchedules(queues: Queues, served: QueueName[]): Promise<void> {
  for (const { job } of JOBS.entries()) {
    if (!job.schedule || !served.includes(job.queue)) continue;
    const repeat = "pattern" in job.schedule ? { pattern: job.schedule.pattern, tz: "UTC" } : { every: job.schedule.every };
    await queues.get(job.queue).upsertJobScheduler(job.name, repeat, { name: job.name, data: {} });
  }
}

import type { JobsOptions } from "bullmq";
import type { QueueName } from "../config/queue-names.ts";

const DAY = 24 * 3600;

/**
 * Retries and backoff belong to BullMQ. Completed jobs stay a day, failed ones
 * a week (bounded in count), so operators can inspect and retry them in Bull Board.
 */
const BASE_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: "exponential", delay: 5_000 },
  removeOnComplete: { age: DAY, count: 10_000 },
  removeOnFail: { age: 7 * DAY, count: 10_000 },
};

/** Every job's defaults, by queue; a job definition's own options go on top. */
export const QUEUE_JOB_OPTIONS: Record<QueueName, JobsOptions> = {
  orders: { ...BASE_OPTIONS, attempts: 8 },
  disputes: { ...BASE_OPTIONS, attempts: 8 },
  inventory: { ...BASE_OPTIONS, attempts: 3 },
  tracking: { ...BASE_OPTIONS, attempts: 3 },
  urgency: { ...BASE_OPTIONS, attempts: 5 },
  reports: { ...BASE_OPTIONS, attempts: 3 },
  notifications: { ...BASE_OPTIONS, attempts: 8, backoff: { type: "exponential", delay: 10_000 } },
  webhooks: { ...BASE_OPTIONS, attempts: 5 },
  timetracking: { ...BASE_OPTIONS, attempts: 5 },
  // A person started the job and watches it (get_job): a failure shows at once and they run it again; the daily
  // certificate check records each site's failure and runs again the next day.
  dashboard: { ...BASE_OPTIONS, attempts: 1 },
  knowledge: { ...BASE_OPTIONS, attempts: 5 },
  // A purge that fails is run again by the next day's schedule; a few retries cover a passing outage.
  retention: { ...BASE_OPTIONS, attempts: 3 },
};

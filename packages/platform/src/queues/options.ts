import type { JobsOptions } from "bullmq";
import { configSchema, type Config } from "../config/config.ts";
import type { QueueName } from "../config/queue-names.ts";

const DAY_SECONDS = 24 * 3600;

/**
 * How long finished jobs stay in Redis, and how many per queue: what operators can inspect and retry in Bull
 * Board, and what sizes Redis (docs/operations.md, "Retention"). BullMQ drops the oldest past either bound as
 * later jobs finish. With them, how many entries each queue's event stream keeps: the rest of what a queue
 * holds in Redis.
 */
export type JobRetention = Pick<
  Config,
  "RETENTION_COMPLETED_JOBS_DAYS" | "RETENTION_COMPLETED_JOBS_MAX" | "RETENTION_FAILED_JOBS_DAYS" | "RETENTION_FAILED_JOBS_MAX" | "RETENTION_QUEUE_EVENTS_MAX"
>;

const RETENTION_SETTINGS = {
  RETENTION_COMPLETED_JOBS_DAYS: true,
  RETENTION_COMPLETED_JOBS_MAX: true,
  RETENTION_FAILED_JOBS_DAYS: true,
  RETENTION_FAILED_JOBS_MAX: true,
  RETENTION_QUEUE_EVENTS_MAX: true,
} as const;

/** The settings' defaults, from the config schema, for queues opened without a config (tests, benches, scripts). */
export const DEFAULT_JOB_RETENTION: JobRetention = configSchema.pick(RETENTION_SETTINGS).parse({});

/** Just the retention settings of `config`, so the queues hold these figures rather than the whole configuration. */
export function jobRetentionOf(config: JobRetention): JobRetention {
  return {
    RETENTION_COMPLETED_JOBS_DAYS: config.RETENTION_COMPLETED_JOBS_DAYS,
    RETENTION_COMPLETED_JOBS_MAX: config.RETENTION_COMPLETED_JOBS_MAX,
    RETENTION_FAILED_JOBS_DAYS: config.RETENTION_FAILED_JOBS_DAYS,
    RETENTION_FAILED_JOBS_MAX: config.RETENTION_FAILED_JOBS_MAX,
    RETENTION_QUEUE_EVENTS_MAX: config.RETENTION_QUEUE_EVENTS_MAX,
  };
}

/**
 * BullMQ's removeOnComplete and removeOnFail for `retention`, each age at most `atMost` seconds when given (a
 * job some caller keeps a shorter time). BullMQ counts a kept job's age in seconds.
 */
export function finishedJobsKept(retention: JobRetention, atMost: { completedSeconds?: number; failedSeconds?: number } = {}): Pick<JobsOptions, "removeOnComplete" | "removeOnFail"> {
  const seconds = (days: number, cap = Number.POSITIVE_INFINITY) => Math.min(Math.round(days * DAY_SECONDS), cap);
  return {
    removeOnComplete: { age: seconds(retention.RETENTION_COMPLETED_JOBS_DAYS, atMost.completedSeconds), count: retention.RETENTION_COMPLETED_JOBS_MAX },
    removeOnFail: { age: seconds(retention.RETENTION_FAILED_JOBS_DAYS, atMost.failedSeconds), count: retention.RETENTION_FAILED_JOBS_MAX },
  };
}

/** Retries and backoff belong to BullMQ; so does dropping finished jobs, by `retention`. */
function baseOptions(retention: JobRetention): JobsOptions {
  return { attempts: 5, backoff: { type: "exponential", delay: 5_000 }, ...finishedJobsKept(retention) };
}

/** Every job's defaults, by queue; a job definition's own options go on top. */
export function queueJobOptions(retention: JobRetention): Record<QueueName, JobsOptions> {
  const base = baseOptions(retention);
  return {
    orders: { ...base, attempts: 8 },
    disputes: { ...base, attempts: 8 },
    inventory: { ...base, attempts: 3 },
    tracking: { ...base, attempts: 3 },
    urgency: { ...base, attempts: 5 },
    reports: { ...base, attempts: 3 },
    notifications: { ...base, attempts: 8, backoff: { type: "exponential", delay: 10_000 } },
    webhooks: { ...base, attempts: 5 },
    timetracking: { ...base, attempts: 5 },
    // A person started the job and watches it (get_job): a failure shows at once and they run it again; the daily
    // certificate check records each site's failure and runs again the next day.
    dashboard: { ...base, attempts: 1 },
    knowledge: { ...base, attempts: 5 },
    // A purge that fails is run again by the next day's schedule; a few retries cover a passing outage.
    retention: { ...base, attempts: 3 },
  };
}

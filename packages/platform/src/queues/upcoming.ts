import type { RedisClient } from "../redis/redis.ts";
import { QUEUE_NAMES, type QueueName } from "../config/queue-names.ts";
import { delayedRunTime } from "./job-status.ts";
import type { Queues } from "./queues.ts";

export interface ScheduledRun {
  queue: QueueName;
  /** The scheduler's id (the job name for the platform's own schedules, `tracking.<site>` style for per-site ones). */
  key: string;
  name: string;
  pattern: string | null;
  every_ms: number | null;
  tz: string | null;
  next_run: string | null;
  iterations: number;
}

export interface DelayedRun {
  queue: QueueName;
  id: string;
  name: string;
  runs_at: string;
  attempts_made: number;
}

/**
 * Every job scheduler and the delayed jobs that run soonest, across the
 * queues. A scheduler's next run is itself a delayed job; it shows as the
 * scheduler's `next_run`, not again among the delayed jobs. When a delayed job
 * runs is its score in the delayed set (BullMQ keeps `delay` from the moment
 * it was delayed, which a retry's backoff or a moveToDelayed does not record).
 */
export async function upcomingRuns(queues: Queues, redis: RedisClient, options: { queue?: QueueName; limit: number }) {
  const names = options.queue ? [options.queue] : [...QUEUE_NAMES];
  const schedulers: ScheduledRun[] = [];
  const delayed: DelayedRun[] = [];
  let more = false;
  for (const name of names) {
    const queue = queues.get(name);
    const own = await queue.getJobSchedulers(0, -1, true);
    for (const scheduler of own) {
      schedulers.push({
        queue: name,
        key: scheduler.key,
        name: scheduler.name,
        pattern: scheduler.pattern ?? null,
        every_ms: scheduler.every ?? null,
        tz: scheduler.tz ?? null,
        next_run: scheduler.next ? new Date(scheduler.next).toISOString() : null,
        iterations: scheduler.iterationCount ?? 0,
      });
    }
    // Each scheduler has at most one delayed run: fetching that many more, plus one, fills the limit and tells if there is more.
    const jobs = (await queue.getDelayed(0, options.limit + own.length)).filter((job) => !job.repeatJobKey && job.id);
    more ||= jobs.length > options.limit;
    const scores = await Promise.all(jobs.slice(0, options.limit).map((job) => redis.zscore(queue.keys.delayed!, job.id!)));
    jobs.slice(0, options.limit).forEach((job, i) => {
      const score = scores[i];
      // Gone from the set meanwhile: it has just been promoted, so it is no longer delayed.
      if (score === null || score === undefined) return;
      delayed.push({ queue: name, id: job.id!, name: job.name, runs_at: delayedRunTime(score).toISOString(), attempts_made: job.attemptsMade });
    });
  }
  schedulers.sort((a, b) => (a.next_run ?? "~").localeCompare(b.next_run ?? "~") || a.queue.localeCompare(b.queue) || a.key.localeCompare(b.key));
  delayed.sort((a, b) => a.runs_at.localeCompare(b.runs_at));
  more ||= delayed.length > options.limit;
  return { schedulers, delayed: delayed.slice(0, options.limit), more };
}

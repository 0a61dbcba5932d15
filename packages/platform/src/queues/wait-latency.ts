import type { Job } from "bullmq";
import { LuaScript } from "../redis/lua-script.ts";
import type { QueueName } from "../config/queue-names.ts";
import type { Queues } from "./queues.ts";

/**
 * Queue wait latency: how long jobs waited for a worker, per queue and UTC
 * hour, recorded by workers as jobs start (count, sum and max in one small
 * hash per queue and hour) and read by the operations page. BullMQ's own job
 * timestamps could not give it: finished jobs are removed after a while, and
 * reading them back means scanning a queue's history.
 */

/** Kept a week and a day: the page draws 24 hours; the margin lets a late reader still find the first hour. */
const KEEP_SECONDS = 8 * 24 * 3600;

/** The UTC hour `YYYY-MM-DD HH` of a time, as the trend charts label their bars. */
function hourOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 13).replace("T", " ");
}

/**
 * The hash of one queue's hour, built by the queue's own key builder: on a
 * cluster it carries the queue's hash tag, so every hour of a queue is in one
 * slot and a day's hours are read in one pipeline.
 */
function waitKey(queues: Queues, queue: QueueName, hour: string): string {
  return queues.get(queue).toKey(`wait-latency:${hour.replace(" ", "T")}`);
}

/** KEYS: the hour's hash; ARGV: the wait in ms, the hash's lifetime in seconds. One round trip per job start. */
const RECORD = new LuaScript(`redis.call("HINCRBY", KEYS[1], "count", 1)
redis.call("HINCRBY", KEYS[1], "sum", ARGV[1])
local max = tonumber(redis.call("HGET", KEYS[1], "max") or "-1")
if tonumber(ARGV[1]) > max then redis.call("HSET", KEYS[1], "max", ARGV[1]) end
redis.call("EXPIRE", KEYS[1], ARGV[2])
return 0`, 1);

/** What the wait is worked out from: BullMQ's own fields of a job a worker has just started. */
export type StartedJob = Pick<Job, "attemptsMade" | "attemptsStarted" | "processedOn" | "timestamp" | "delay">;

/**
 * How long this start of a job waited, in ms: from when the job was ready (added,
 * or its delay over: a scheduler's run time) to a worker taking it (processedOn).
 * Null unless it is the job's first start: a retry's backoff or a delay asked by
 * an upstream is not kept on the job, so its ready time is not known.
 */
function jobWaitMs(job: StartedJob): number | null {
  if (job.attemptsMade > 0 || job.attemptsStarted > 1 || !job.processedOn) return null;
  // Producer and worker clocks may differ by a little: a wait is never negative.
  return Math.max(0, job.processedOn - (job.timestamp + (job.delay || 0)));
}

/** Records a starting job's wait in its queue's hour (the hour it started). */
export async function recordQueueWait(queues: Queues, queue: QueueName, job: StartedJob): Promise<void> {
  const wait = jobWaitMs(job);
  if (wait === null) return;
  await RECORD.run(queues.connection, waitKey(queues, queue, hourOf(job.processedOn!)), String(wait), String(KEEP_SECONDS));
}

export interface HourlyWait {
  count: number;
  average_ms: number;
  max_ms: number;
}

/** A queue's waits in these hours (those with no job started are absent). */
export async function queueWaitsByHour(queues: Queues, queue: QueueName, hours: string[]): Promise<Map<string, HourlyWait>> {
  const pipeline = queues.connection.pipeline();
  for (const hour of hours) pipeline.hmget(waitKey(queues, queue, hour), "count", "sum", "max");
  const replies = (await pipeline.exec()) ?? [];
  const waits = new Map<string, HourlyWait>();
  replies.forEach(([error, reply], i) => {
    if (error) throw error;
    const [count, sum, max] = (reply as (string | null)[]).map(Number);
    if (count) waits.set(hours[i]!, { count, average_ms: sum! / count, max_ms: max! });
  });
  return waits;
}

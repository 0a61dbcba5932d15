import type { Job } from "bullmq";
import type { QueueName } from "../config/queue-names.ts";
import type { Queues } from "./queues.ts";

/** Where Bull Board is mounted; a job's page is boardJobPath's. */
export const BOARD_PATH = "/admin/queues";

/** The Bull Board page of one job, relative to the API's origin. */
export function boardJobPath(queue: QueueName, id: string): string {
  return `${BOARD_PATH}/queue/${encodeURIComponent(queue)}/${encodeURIComponent(id)}`;
}

/** When a delayed job runs: BullMQ keeps the time in its delayed-set score, times 0x1000 plus a tie-breaking counter. */
export function delayedRunTime(score: string | number): Date {
  return new Date(Math.floor(Number(score) / 0x1000));
}

/** What the queue knows of one job: where it is, what was tried and when it runs next. */
export interface JobStatus {
  queue: QueueName;
  id: string;
  /** BullMQ's state: waiting, active, delayed, prioritized, completed, failed, ... */
  state: string;
  attempts_made: number;
  /** The last attempt's error (BullMQ keeps it while the job is retried too). */
  failed_reason: string | null;
  /** When a delayed job (a retry's backoff) runs next; null unless delayed. */
  next_attempt_at: Date | null;
  /** Why a delayed job waits when an upstream asked to be called later (Retry-After) rather than after a failed attempt; null otherwise. */
  deferred_reason: string | null;
  board_path: string;
}

/** The field of a job's own hash that says why it was put back (deleted with the job). */
const DEFERRAL_FIELD = "mwDeferral";

/**
 * Records on the job why it is put back until `until` without using an
 * attempt (an upstream's Retry-After): BullMQ keeps no reason for a delay,
 * and without one an order held back by the ERP looked merely queued.
 */
export async function recordDeferral(queues: Queues, queue: QueueName, id: string, reason: string, until: number): Promise<void> {
  await queues.connection.hset(queues.get(queue).toKey(id), DEFERRAL_FIELD, JSON.stringify({ reason, until }));
}

/** The recorded deferral's reason when it is the one the job now waits for (a later retry's backoff is not). */
async function deferralOf(queues: Queues, queue: QueueName, id: string, runsAt: Date | null): Promise<string | null> {
  if (!runsAt) return null;
  const stored = await queues.connection.hget(queues.get(queue).toKey(id), DEFERRAL_FIELD);
  if (!stored) return null;
  const { reason, until } = JSON.parse(stored) as { reason: string; until: number };
  return Math.abs(until - runsAt.getTime()) < 1000 ? reason : null;
}

/**
 * The status of a job by its id, null when the queue no longer holds it.
 * A delayed job runs at its score in the delayed set (BullMQ does not record
 * a retry's backoff in the job itself; see upcoming.ts).
 */
export async function jobStatus(queues: Queues, queue: QueueName, id: string): Promise<JobStatus | null> {
  const q = queues.get(queue);
  const job: Job | undefined = await q.getJob(id);
  if (!job) return null;
  const state = await job.getState();
  const score = state === "delayed" ? await queues.connection.zscore(q.keys.delayed!, id) : null;
  const nextAttempt = score === null || score === undefined ? null : delayedRunTime(score);
  return {
    queue,
    id,
    state,
    attempts_made: job.attemptsMade,
    failed_reason: job.failedReason || null,
    next_attempt_at: nextAttempt,
    deferred_reason: await deferralOf(queues, queue, id, nextAttempt),
    board_path: boardJobPath(queue, id),
  };
}

/** A job as an object's lifecycle shows it (REST, console, CLI): which, where, and its Bull Board page. */
export function jobFields(job: JobStatus | null): { job_id: string | null; job_state: string | null; job_url: string | null } {
  return { job_id: job?.id ?? null, job_state: job?.state ?? null, job_url: job?.board_path ?? null };
}

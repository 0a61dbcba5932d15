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
  board_path: string;
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
  return {
    queue,
    id,
    state,
    attempts_made: job.attemptsMade,
    failed_reason: job.failedReason || null,
    next_attempt_at: score === null || score === undefined ? null : delayedRunTime(score),
    board_path: boardJobPath(queue, id),
  };
}

/** A job as an object's lifecycle shows it (REST, console, CLI): which, where, and its Bull Board page. */
export function jobFields(job: JobStatus | null): { job_id: string | null; job_state: string | null; job_url: string | null } {
  return { job_id: job?.id ?? null, job_state: job?.state ?? null, job_url: job?.board_path ?? null };
}

import type { Job, Queue } from "bullmq";

/**
 * Failed reasons BullMQ writes itself when a job's process died under it
 * (its lock expired once too often, or it was started too often). The job
 * never reached its code's verdict, so the failure says nothing about the work.
 */
const LOST_BY_THE_WORKER = ["job stalled more than allowable limit", "job started more than allowable limit"];

/**
 * A failed job failed for good when its own code gave up on it: BullMQ
 * ends a job before its last attempt only for an UnrecoverableError (our
 * permanent failures). A job that used every attempt (the upstream stayed down)
 * or that BullMQ failed because its worker died deserves another round.
 */
export function failedForGood(job: Pick<Job, "failedReason" | "attemptsMade" | "opts">): boolean {
  if (LOST_BY_THE_WORKER.includes(job.failedReason)) return false;
  return job.attemptsMade < (job.opts.attempts ?? 1);
}

export type SweepVerdict = "missing" | "retried" | "pending" | "failed_for_good";

/**
 * What a sweep does with the job of a business row that is still not done:
 * `missing` (the caller adds it again), `retried` (a failed job that may
 * succeed went back to the queue with fresh attempts), `pending` (it is
 * waiting, running or delayed: leave it), or `failed_for_good` (an operator's
 * call, visible in Bull Board). `retryReasons` are permanent verdicts the
 * caller knows to be over.
 */
export async function retryUnlessFailedForGood(queue: Queue, jobId: string, options: { retryReasons?: readonly string[] } = {}): Promise<SweepVerdict> {
  const job = await queue.getJob(jobId);
  if (!job) return "missing";
  if (!(await job.isFailed())) return "pending";
  // A caller may know a permanent verdict that no longer holds (a setting that was missing is now set).
  if (failedForGood(job) && !options.retryReasons?.includes(job.failedReason)) return "failed_for_good";
  await job.retry("failed", { resetAttemptsMade: true, resetAttemptsStarted: true });
  return "retried";
}

import { AppError, jobDelayAsked } from "@mw/platform";
import { UnrecoverableError, type Job } from "bullmq";

/** A failure BullMQ does not retry: our permanent AppError, or BullMQ's own UnrecoverableError. */
export function isPermanent(error: unknown): boolean {
  return error instanceof UnrecoverableError || (error instanceof AppError && error.permanent);
}

/** True when this failure ends the job: it is permanent, or this attempt was the last one (and the upstream did not ask for a delay instead). */
export function endsJob(job: Job, error: unknown): boolean {
  if (jobDelayAsked(error) !== null) return false;
  return isPermanent(error) || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

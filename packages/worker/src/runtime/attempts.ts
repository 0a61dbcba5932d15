import { AppError } from "@mw/platform";
import { UnrecoverableError, type Job } from "bullmq";

/** A failure BullMQ does not retry: our permanent AppError, or BullMQ's own UnrecoverableError. */
export function isPermanent(error: unknown): boolean {
  return error instanceof UnrecoverableError || (error instanceof AppError && error.permanent);
}

/** True when this failure ends the job: it is permanent, or this attempt was the last one. */
export function endsJob(job: Job, error: unknown): boolean {
  return isPermanent(error) || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

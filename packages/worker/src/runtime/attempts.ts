import { AppError, jobDelayAsked } from "@mw/platform";
import { UnrecoverableError, type Job } from "bullmq";

/**
 * How often one job is put back for an upstream's `Retry-After` without using
 * an attempt. Past this, the upstream's answer counts as the attempt's
 * failure, so an upstream that answers 429 for ever ends the job in `failed`
 * (with the 429 as its reason) instead of keeping it waiting for ever.
 */
export const MAX_JOB_DEFERRALS = 10;

/** A failure BullMQ does not retry: our permanent AppError, or BullMQ's own UnrecoverableError. */
export function isPermanent(error: unknown): boolean {
  return error instanceof UnrecoverableError || (error instanceof AppError && error.permanent);
}

/**
 * The times this job was put back so far: each start before this one that
 * neither failed (attemptsMade) nor stalled ended in a deferral, since those
 * are the only other ways a started job goes back to its queue.
 */
function deferralsSoFar(job: Job): number {
  return job.attemptsStarted - 1 - job.attemptsMade - job.stalledCounter;
}

/** The wait (ms) this failure puts the job back for without using its attempt, or null when it uses the attempt like any failure. */
export function deferralOf(job: Job, error: unknown): number | null {
  const asked = jobDelayAsked(error);
  return asked !== null && deferralsSoFar(job) < MAX_JOB_DEFERRALS ? asked : null;
}

/** True when this failure ends the job: it is permanent, or this attempt was the last one (and the job is not put back instead). */
export function endsJob(job: Job, error: unknown): boolean {
  if (deferralOf(job, error) !== null) return false;
  return isPermanent(error) || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
}

/** The job as a per-site sync use case sees it: its id, and whether a failure ends it. */
export function syncJobOf(job: Job): { id: string | undefined; ends(error: unknown): boolean } {
  return { id: job.id, ends: (error) => endsJob(job, error) };
}

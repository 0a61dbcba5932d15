import type { Request, Response } from "express";
import { AppError, runAndWait, scheduledRunJobId, type JobDefinition, type RunOutcome } from "@mw/platform";
import { z } from "zod";
import type { AppContext } from "../context.ts";

/** The query every scheduled endpoint takes (documented in OpenAPI). */
export const scheduledAsyncQuery = z.object({ async: z.enum(["0", "1"]).optional().describe("1: answer 202 with the job id at once instead of waiting") });

/** The 202 answer: the run goes on, here is its job. */
export const scheduledQueued = z.object({ success: z.literal(true), job_id: z.string(), message: z.string() });

/**
 * Design 10.8: a scheduled endpoint runs its job and waits for the result
 * (up to SCHEDULED_WAIT_SECONDS; `?async=1` not at all), answering 202 with
 * the job id when it is still running; a call during a run joins it. A
 * failed run is 500 `sync_error`, naming its reason only with `showReason`
 * (a caller that proved itself); otherwise the answer points at the job and
 * the reason goes to the log.
 */
export async function runScheduled(
  ctx: Pick<AppContext, "config" | "queues">,
  req: Request,
  res: Response,
  job: JobDefinition,
  payload: Record<string, unknown>,
  name: string,
  /** Another job id than the endpoint's one run, and another bound than SCHEDULED_WAIT_SECONDS (toolshed routes a person waits on). */
  run: { jobId?: string; waitMs?: number; showReason?: boolean } = {},
): Promise<Extract<RunOutcome, { state: "completed" }> | z.infer<typeof scheduledQueued>> {
  const waitMs = req.query.async === "1" ? 0 : (run.waitMs ?? ctx.config.SCHEDULED_WAIT_SECONDS * 1000);
  const outcome = await runAndWait(ctx.queues, job, payload, { jobId: run.jobId ?? scheduledRunJobId(name), waitMs });
  if (outcome.state === "failed") {
    if (run.showReason ?? true) throw new AppError(500, "sync_error", `${name} failed: ${outcome.reason}`);
    // The error handler logs a 500 with its cause: the reason reaches the log, not the caller.
    throw new AppError(500, "sync_error", `${name} failed; the reason is in the log of job ${outcome.job_id}.`, {}, { cause: outcome.reason });
  }
  if (outcome.state === "running") {
    res.status(202);
    return { success: true as const, job_id: outcome.job_id, message: `${name} is running; see job ${outcome.job_id} in Bull Board or GET /queue.` };
  }
  return outcome;
}

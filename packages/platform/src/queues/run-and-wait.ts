import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import { jobId, type JobDefinition } from "./jobs.ts";
import { finishedJobsKept } from "./options.ts";
import type { Queues } from "./queues.ts";

/** How often a waiting caller looks at its job. */
const POLL_MS = 200;
/** Longest a caller holds the right to replace a finished run (removing it and adding the next takes milliseconds). */
const REPLACE_LOCK_MS = 10_000;

/** The scheduled endpoints' runs: one at a time each, so concurrent calls share it. */
export const scheduledRunJobId = (name: string) => jobId("scheduled", name);

export type RunOutcome = { state: "completed"; job_id: string; result: unknown } | { state: "failed"; job_id: string; reason: string } | { state: "running"; job_id: string };

/**
 * Design 10.8's scheduled endpoints: run one job and wait for its result, up
 * to `waitMs` (then answer that it is still running, with its id). The job
 * has a fixed id, so a call while it waits or runs joins it instead of
 * starting another; a finished one makes way for a new run.
 */
export async function runAndWait<Schema extends z.ZodType>(queues: Queues, job: JobDefinition<Schema>, payload: z.input<Schema>, options: { jobId: string; waitMs: number }): Promise<RunOutcome> {
  const queue = queues.get(job.queue);
  // Two callers that both find the last run finished must not both replace it: the second would remove
  // the run the first just added (failing it if a worker had taken it). One replaces; the other then joins.
  const redis = queues.connection;
  const lock = `${queues.prefix}:${job.queue}:run-lock:${options.jobId}`;
  const token = randomUUID();
  const deadline = Date.now() + REPLACE_LOCK_MS;
  while (!(await redis.set(lock, token, "PX", REPLACE_LOCK_MS, "NX"))) {
    if (Date.now() > deadline) throw new Error(`another caller has held the run lock of ${options.jobId} for ${REPLACE_LOCK_MS} ms`);
    await sleep(20);
  }
  try {
    const existing = await queue.getJob(options.jobId);
    if (existing && ["completed", "failed"].includes(await existing.getState())) await existing.remove();
    // A run's outcome is read within the hour, so it goes sooner than the queue's jobs; the queue's count still bounds it
    // (a run per order, say), as every finishing job trims its queue's finished jobs by its own options.
    await queues.add(job, payload, { jobId: options.jobId, attempts: 1, ...finishedJobsKept(queues.jobRetention, { completedSeconds: 3600, failedSeconds: 24 * 3600 }) });
  } finally {
    if ((await redis.get(lock)) === token) await redis.del(lock);
  }
  // Not waiting (`?async=1`) answers "running" whatever a fast worker did meanwhile: the caller asked not to
  // wait for the outcome, so the answer must not depend on whether the run already ended.
  if (options.waitMs <= 0) return { state: "running", job_id: options.jobId };
  const waitUntil = Date.now() + options.waitMs;
  for (;;) {
    // The state first, then the job: a job read before it finished would carry no result yet.
    const state = await queue.getJobState(options.jobId);
    const finished = state === "completed" || state === "failed" ? await queue.getJob(options.jobId) : undefined;
    if (state === "completed" && finished) return { state, job_id: options.jobId, result: finished.returnvalue };
    if (state === "failed" && finished) return { state, job_id: options.jobId, reason: finished.failedReason };
    if (Date.now() >= waitUntil) return { state: "running", job_id: options.jobId };
    await sleep(Math.min(POLL_MS, Math.max(0, waitUntil - Date.now())));
  }
}

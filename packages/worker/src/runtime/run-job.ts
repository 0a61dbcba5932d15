import { AppError, followJobLog, recordDeferral, recordJobDuration, recordQueueWait, type Connections, type QueueName } from "@mw/platform";
import { DelayedError, UnrecoverableError, type Job } from "bullmq";
import { deferralOf, isPermanent } from "./attempts.ts";
import type { WorkerCatalog } from "./processor.ts";
import { progressReporter } from "./progress.ts";

/**
 * Runs one job for both the long-running workers and drain mode: parses the
 * payload, finds the processor, logs (into the job's own log too, for Bull
 * Board's Logs tab), records the wait for a worker and the duration. A payload its definition does not
 * validate (wrong types, or a key it does not declare) never reaches the
 * processor. Failures that a
 * retry cannot fix (bad payload, unknown job, permanent AppError) become
 * BullMQ's UnrecoverableError so the job fails at once, visibly.
 */
export async function runJob(
  connections: Connections,
  catalog: WorkerCatalog,
  job: Job,
  token: string | undefined,
): Promise<unknown> {
  const log = connections.logger.child({ queue: job.queueName, job_id: job.id, job_name: job.name, attempt: job.attemptsMade + 1 });
  const started = performance.now();
  const finish = (outcome: "completed" | "failed") =>
    recordJobDuration(connections.redis, connections.config.QUEUE_PREFIX, job.queueName, outcome, (performance.now() - started) / 1000).catch(
      (error: unknown) => log.warn("could not record job duration", { error }),
    );
  const unfollow = followJobLog(connections.logger, job, connections.queues);
  log.info("job started");
  // Sent beside the processing (the job need not wait for its own wait to be counted), settled before the job ends.
  const waitRecorded = recordQueueWait(connections.queues, job.queueName as QueueName, job).catch((error: unknown) => log.warn("could not record queue wait", { error }));
  const delay = async (ms: number, reason: string): Promise<never> => {
    const until = Date.now() + ms;
    // Why it waits, for the lifecycle of what the job works on (an order held back by the ERP says so).
    await recordDeferral(connections.queues, job.queueName as QueueName, job.id!, reason, until);
    await job.moveToDelayed(until, token);
    log.info("job delayed", { reason, delay_ms: Math.round(ms) });
    throw new DelayedError();
  };
  try {
    const handler = catalog.find(job.queueName, job.name);
    if (!handler) throw new UnrecoverableError(`no processor for job "${job.name}" in queue "${job.queueName}"`);
    const parsed = handler.accepts.safeParse(job.data);
    if (!parsed.success) {
      throw new UnrecoverableError(`invalid payload: ${parsed.error.issues.map((i) => `${i.path.join(".") || "payload"}: ${i.message}`).join("; ")}`);
    }
    const result = await handler.process(job, parsed.data, { ...connections, log, progress: progressReporter(job), delay });
    log.info("job completed", { duration_ms: Math.round(performance.now() - started) });
    // Sent together: the duration and the log rows need not wait for each other.
    await Promise.all([finish("completed"), unfollow(), waitRecorded]);
    return result;
  } catch (error) {
    if (error instanceof DelayedError) throw error;
    // An upstream that asked to be called later (Retry-After) gets its wait; the attempt is not used up
    // unless the job was put back MAX_JOB_DEFERRALS times already.
    const asked = deferralOf(job, error);
    if (asked !== null) await delay(asked, (error as Error).message);
    const permanent = isPermanent(error);
    log.error("job failed", { error: (error as Error).message, permanent, duration_ms: Math.round(performance.now() - started) });
    await Promise.all([finish("failed"), unfollow(), waitRecorded]);
    if (error instanceof AppError && error.permanent) throw new UnrecoverableError(error.message);
    throw error;
  } finally {
    // The job's log rows (and its wait) are in Redis before BullMQ marks it finished, delayed too.
    await Promise.all([unfollow(), waitRecorded]);
  }
}

import { errors, formatDateTime } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";
import { findAcquirerEvent } from "../webhooks/index.ts";
import { disputeReplayJobId, processDisputeJob } from "./jobs.ts";
import { disputeJobInProgress, indexDisputeReplay } from "./lifecycle.ts";

/**
 * What a replay did, in the shape every bulk trigger answers with (docs/lifecycle.md):
 * the dispute queued, or skipped with why. `job` is the job that processes the
 * dispute now: the replay, or the one in progress that made it skip.
 */
interface ReplayOutcome {
  webhookId: number;
  job: { id: string; state: string };
  queued: { webhook_id: number; job_id: string }[];
  skipped: { webhook_id: number; reason: string }[];
}

/**
 * Queues a received dispute again, found by its webhook row or its case id,
 * under a fresh job id. A dispute whose job has yet to end (waiting, running,
 * waiting for a retry) is skipped: a replay would only run beside that job.
 */
export async function replayDispute(
  deps: Pick<Connections, "prisma" | "queues" | "logger">,
  key: { webhook_id: number } | { case_id: string },
): Promise<ReplayOutcome> {
  const row = await findAcquirerEvent(deps, "webhook_id" in key ? { id: key.webhook_id } : { event_id: `acquirer_case_${key.case_id}` });
  if (!row) throw errors.notFound("No received dispute matches.");
  const running = await disputeJobInProgress(deps, row);
  if (running) {
    const next = running.next_attempt_at ? `, next attempt ${formatDateTime(running.next_attempt_at)} UTC` : "";
    const reason = `already in progress: job ${running.id} is ${running.state}${next}`;
    deps.logger.info("dispute replay skipped", { webhook_id: row.id, reason });
    return { webhookId: row.id, job: { id: running.id, state: running.state }, queued: [], skipped: [{ webhook_id: row.id, reason }] };
  }
  const at = Date.now();
  const id = disputeReplayJobId(row, at);
  await deps.queues.add(processDisputeJob, { webhook_id: row.id }, { jobId: id });
  // Indexed after the add: an entry never names a job that was not added (a search skips one the queue no longer holds).
  await indexDisputeReplay(deps, row.id, id, at);
  deps.logger.info("dispute replayed", { webhook_id: row.id, job_id: id });
  return { webhookId: row.id, job: { id, state: "waiting" }, queued: [{ webhook_id: row.id, job_id: id }], skipped: [] };
}

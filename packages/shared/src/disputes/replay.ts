import { type Connections, errors } from "@mw/platform";
import { findAcquirerEvent } from "../webhooks/index.ts";
import { disputeReplayJobId, processDisputeJob } from "./jobs.ts";
import { indexDisputeReplay } from "./lifecycle.ts";

/**
 * Queues a received dispute again, found by its webhook row or its case id,
 * under a fresh job id (an operator's replay runs beside the original job).
 */
export async function replayDispute(
  deps: Pick<Connections, "prisma" | "queues" | "logger">,
  key: { webhook_id: number } | { case_id: string },
): Promise<{ webhookId: number; jobId: string }> {
  const row = await findAcquirerEvent(deps, "webhook_id" in key ? { id: key.webhook_id } : { event_id: `acquirer_case_${key.case_id}` });
  if (!row) throw errors.notFound("No received dispute matches.");
  const at = Date.now();
  const id = disputeReplayJobId(row, at);
  await deps.queues.add(processDisputeJob, { webhook_id: row.id }, { jobId: id });
  // Indexed after the add: an entry never names a job that was not added (a search skips one the queue no longer holds).
  await indexDisputeReplay(deps, row.id, id, at);
  deps.logger.info("dispute replayed", { webhook_id: row.id, job_id: id });
  return { webhookId: row.id, jobId: id };
}

import { type Queues, retryUnlessFailedForGood } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { strandedAcquirerEvents } from "../webhooks/index.ts";
import { disputeJobId, processDisputeJob } from "./jobs.ts";

/**
 * Adds the row's processing job. BullMQ ignores an add whose job id already
 * exists, which is what makes re-queueing (sweeper, redelivery) safe.
 */
export async function queueDispute(queues: Queues, row: { id: number; event_id: string | null }): Promise<void> {
  await queues.add(processDisputeJob, { webhook_id: row.id, event_id: row.event_id ?? undefined }, { jobId: disputeJobId(row) });
}

/**
 * The inbox sweep: every acquirer row that is not processed yet must have
 * a live job in Redis. A row without one (a crash between the audit row and
 * the enqueue, Redis losing its data, a job removed by hand) gets it again; a
 * row whose job failed without a permanent verdict (its worker died twice under
 * it, or the gateway stayed down through every attempt) is retried. Answers
 * how many rows got a new job and how many were retried.
 */
export async function sweepDisputeInbox(deps: Pick<Connections, "prisma" | "queues">, limit = 1000): Promise<{ queued: number; retried: number }> {
  const rows = await strandedAcquirerEvents(deps, limit);
  const queue = deps.queues.get(processDisputeJob.queue);
  const swept = { queued: 0, retried: 0 };
  for (const row of rows) {
    const verdict = await retryUnlessFailedForGood(queue, disputeJobId(row));
    if (verdict === "missing") {
      await queueDispute(deps.queues, row);
      swept.queued += 1;
    } else if (verdict === "retried") {
      swept.retried += 1;
    }
  }
  return swept;
}

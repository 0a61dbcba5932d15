import type { PrismaClient } from "../platform/db.ts";
import { jobId, type Queues } from "../platform/queues/queues.ts";
import { strandedWebhooks } from "../platform/inbound-deliveries.ts";

/** The job of a dispute webhook row: keyed by its event id when it has one, else by the row. */
export function disputeJobId(row: { id: number; event_id: string | null }): string {
  return row.event_id ? jobId("dispute", row.event_id) : jobId("dispute", "webhook", row.id);
}

/**
 * Adds the row's processing job. BullMQ ignores an add whose job id already
 * exists, which is what makes re-queueing (sweeper, redelivery) safe.
 */
export async function queueDispute(queues: Queues, row: { id: number; event_id: string | null }): Promise<void> {
  await queues.add("disputes", "process-dispute", { webhook_id: row.id }, { jobId: disputeJobId(row) });
}

/**
 * The outbox sweep: every acquirer row that is not processed yet must have
 * its job in Redis. A row without one (a crash between the audit row and the
 * enqueue, or a job removed by hand) gets it again. Answers how many.
 */
export async function sweepDisputeOutbox(prisma: PrismaClient, queues: Queues, limit = 1000): Promise<number> {
  const rows = await prisma.webhookEvent.findMany({
    where: strandedWebhooks("acquirer"),
    orderBy: { id: "asc" },
    take: limit,
    select: { id: true, event_id: true },
  });
  const queue = queues.get("disputes");
  let requeued = 0;
  for (const row of rows) {
    if (await queue.getJob(disputeJobId(row))) continue;
    await queueDispute(queues, row);
    requeued += 1;
  }
  return requeued;
}

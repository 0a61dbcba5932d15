import type { PrismaClient } from "../platform/db.ts";
import type { Queues } from "../platform/index.ts";
import { strandedWebhooks } from "../webhooks/index.ts";
import { disputeJobId, processDisputeJob } from "./jobs.ts";

/**
 * Adds the row's processing job. BullMQ ignores an add whose job id already
 * exists, which is what makes re-queueing (sweeper, redelivery) safe.
 */
export async function queueDispute(queues: Queues, row: { id: number; event_id: string | null }): Promise<void> {
  await queues.add(processDisputeJob, { webhook_id: row.id }, { jobId: disputeJobId(row) });
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
  const queue = queues.get(processDisputeJob.queue);
  let requeued = 0;
  for (const row of rows) {
    if (await queue.getJob(disputeJobId(row))) continue;
    await queueDispute(queues, row);
    requeued += 1;
  }
  return requeued;
}

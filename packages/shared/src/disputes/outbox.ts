import type { PrismaClient } from "../db.ts";
import { jobId, type Queues } from "../queues.ts";

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

export async function markQueued(prisma: PrismaClient, id: number): Promise<void> {
  await prisma.webhookEvent.updateMany({ where: { id, queued_at: null }, data: { queued_at: new Date() } });
}

/** Rows older than this without queued_at lost their job between the two writes. */
export const OUTBOX_GRACE_MS = 30_000;

/** The outbox sweep: queues acquirer rows whose job never reached Redis; answers how many. */
export async function sweepDisputeOutbox(prisma: PrismaClient, queues: Queues, limit = 500): Promise<number> {
  const rows = await prisma.webhookEvent.findMany({
    where: { source: "acquirer", queued_at: null, received_at: { lt: new Date(Date.now() - OUTBOX_GRACE_MS) } },
    orderBy: { id: "asc" },
    take: limit,
    select: { id: true, event_id: true },
  });
  for (const row of rows) {
    await queueDispute(queues, row);
    await markQueued(prisma, row.id);
  }
  return rows.length;
}

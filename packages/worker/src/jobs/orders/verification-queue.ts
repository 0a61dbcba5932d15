import { orderVerifyJob, orderVerifyJobId } from "@mw/shared/orders";
import { retryUnlessFailedForGood } from "@mw/platform";
import type { JobContext } from "../../runtime/processor.ts";

/** Where a verification's difference is recorded in the errors table. */
export const VERIFY_SOURCE = "erp_verify";
/** Younger exports have their read-back queued by the export itself. */
const SWEEP_MIN_AGE_MS = 60_000;
const SWEEP_BATCH = 500;

/** The read-back of an exported order; its job id makes a second request for it a no-op. */
export async function queueVerification(ctx: JobContext, order: { id: number; number: string; site_id: number }): Promise<void> {
  await ctx.queues.add(orderVerifyJob, { order_id: order.id, order_number: order.number, site_id: order.site_id }, { jobId: orderVerifyJobId(order.id) });
}

/**
 * Exported orders not verified yet (`pending_verify`) whose read-back never
 * ran or ran out of attempts get it again; one whose read-back found a
 * mismatch (recorded as a sync error) waits for an operator instead.
 */
export async function queuePendingVerifications(ctx: JobContext): Promise<number> {
  const exported = await ctx.prisma.order.findMany({
    where: { imported: 1, verified: 0, imported_at: { lt: new Date(Date.now() - SWEEP_MIN_AGE_MS) } },
    orderBy: { imported_at: "asc" },
    take: SWEEP_BATCH,
    select: { id: true, number: true, site_id: true },
  });
  if (!exported.length) return 0;
  const mismatched = await ctx.prisma.syncError.findMany({
    where: { source: VERIFY_SOURCE, order_number: { in: exported.map((order) => order.number) } },
    select: { order_number: true, site_id: true },
  });
  const settled = new Set(mismatched.map((row) => `${row.site_id}/${row.order_number}`));
  const queue = ctx.queues.get(orderVerifyJob.queue);
  let queued = 0;
  for (const order of exported.filter((candidate) => !settled.has(`${candidate.site_id}/${candidate.number}`))) {
    const verdict = await retryUnlessFailedForGood(queue, orderVerifyJobId(order.id));
    if (verdict === "missing") await queueVerification(ctx, order);
    if (verdict !== "failed_for_good") queued += 1;
  }
  return queued;
}

import { retryUnlessFailedForGood } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { ordersAwaitingVerification } from "./export-state.ts";
import { orderVerifyJob, orderVerifyJobId } from "./jobs.ts";

/** Younger exports have their read-back queued by the export itself. */
const SWEEP_MIN_AGE_MS = 60_000;
const SWEEP_BATCH = 500;

/** The read-back of an exported order; its job id makes a second request for it a no-op. */
export async function queueVerification(deps: Pick<Connections, "queues">, order: { id: number; number: string; site_id: number }): Promise<void> {
  await deps.queues.add(orderVerifyJob, { order_id: order.id, order_number: order.number, site_id: order.site_id }, { jobId: orderVerifyJobId(order.id) });
}

/**
 * Exported orders not verified yet (`pending_verify`) whose read-back never
 * ran or ran out of attempts get it again; one whose read-back found a
 * mismatch (recorded as a sync error) waits for an operator instead.
 */
export async function queuePendingVerifications(deps: Pick<Connections, "prisma" | "queues">): Promise<number> {
  const awaiting = await ordersAwaitingVerification(deps, new Date(Date.now() - SWEEP_MIN_AGE_MS), SWEEP_BATCH);
  const queue = deps.queues.get(orderVerifyJob.queue);
  let queued = 0;
  for (const order of awaiting) {
    const verdict = await retryUnlessFailedForGood(queue, orderVerifyJobId(order.id));
    if (verdict === "missing") await queueVerification(deps, order);
    if (verdict !== "failed_for_good") queued += 1;
  }
  return queued;
}

import { formatDateTime } from "@mw/platform/core";
import { jobFields, jobStatus, type JobStatus } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { ERP_NOT_CONFIGURED, isErpClientRefusalReason } from "@mw/providers/erp";
import { orderExportJob, orderExportJobId, orderVerifyJob, orderVerifyJobId } from "./jobs.ts";

/**
 * Where an order is in its life, from the table and the queue. The table
 * decides `exported`, `verified` and `failed` (so a list filtered by them and
 * the operations page's counts agree with every row); the queue refines an
 * order not exported yet into `exporting`, `retrying` or `skipped`.
 */
export const ORDER_STATES = ["pending", "exporting", "retrying", "exported", "verified", "failed", "skipped"] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/**
 * The states a list can be filtered by: those the table holds. `pending`
 * covers every order neither exported nor failed (its rows say `exporting`,
 * `retrying` or `skipped` when the queue knows more).
 */
export const ORDER_STATE_FILTERS = ["pending", "exported", "verified", "failed"] as const;
export type OrderStateFilter = (typeof ORDER_STATE_FILTERS)[number];

export interface OrderLifecycle {
  state: OrderState;
  /** Why the order is where it is (the failure, what skipped it, what it waits for); null when nothing needs saying. */
  reason: string | null;
  /** When the queue tries again: a retry's backoff, or the sweep's new round after a failure. */
  next_attempt_at: Date | null;
  /** Attempts of the job that matters now (the export, then the read-back). */
  attempts: number;
  last_error: string | null;
  /** That job as the queue holds it; null when the queue no longer (or not yet) holds one. */
  job: JobStatus | null;
}

/** What the lifecycle reads of an order row. */
type LifecycleRow = { id: number; imported: number; verified: number; failed_at: Date | null; failure: string | null };

function notExported(job: JobStatus | null): Pick<OrderLifecycle, "state" | "reason"> {
  if (!job) return { state: "pending", reason: "No export job yet: the order sweep queues one within five minutes" };
  if (job.state === "active") return { state: "exporting", reason: null };
  if (job.state === "delayed" && job.attempts_made > 0) return { state: "retrying", reason: job.failed_reason };
  if (job.state === "failed" && job.failed_reason === ERP_NOT_CONFIGURED) {
    return { state: "skipped", reason: `${ERP_NOT_CONFIGURED}; the order sweep exports it once the ERP is configured` };
  }
  if (job.state === "failed" && isErpClientRefusalReason(job.failed_reason)) {
    return { state: "pending", reason: `Waiting for the ERP to accept the platform's client credentials (${job.failed_reason}); the order sweep exports it once they are put right` };
  }
  if (job.state === "failed") return { state: "failed", reason: job.failed_reason };
  return { state: "pending", reason: "Queued for export" };
}

/** The lifecycle of one order (its row and its jobs). */
export async function orderLifecycle(deps: Pick<Connections, "queues">, order: LifecycleRow): Promise<OrderLifecycle> {
  const [exporting, verifying] = await Promise.all([
    jobStatus(deps.queues, orderExportJob.queue, orderExportJobId(order.id)),
    order.imported === 1 ? jobStatus(deps.queues, orderVerifyJob.queue, orderVerifyJobId(order.id)) : null,
  ]);
  const job = verifying ?? exporting;
  let where: Pick<OrderLifecycle, "state" | "reason">;
  if (order.verified === 1) where = { state: "verified", reason: null };
  else if (order.failed_at) where = { state: "failed", reason: order.failure };
  else if (order.imported === 1) where = { state: "exported", reason: "Awaiting the read-back from the ERP" };
  else where = notExported(exporting);
  // Held back by the ERP (Retry-After): not a failure, and not merely queued either.
  if (job?.deferred_reason && (where.state === "pending" || where.state === "retrying" || where.state === "exported")) {
    where = { state: where.state, reason: `Held back by the ERP until the next attempt: ${job.deferred_reason}` };
  }
  return {
    ...where,
    next_attempt_at: job?.state === "delayed" ? job.next_attempt_at : null,
    attempts: job?.attempts_made ?? 0,
    last_error: job?.failed_reason ?? order.failure,
    job,
  };
}

/** The lifecycle as the order list, the order, the console and `order:show` show it. */
export function orderLifecycleFields(lifecycle: OrderLifecycle) {
  return {
    state: lifecycle.state,
    state_reason: lifecycle.reason,
    next_attempt_at: formatDateTime(lifecycle.next_attempt_at),
    attempts: lifecycle.attempts,
    last_error: lifecycle.last_error,
    ...jobFields(lifecycle.job),
  };
}

/** Every order of this number (one per site, the first 20) with its site's name and its lifecycle, for `order:show`. */
export async function orderLifecyclesByNumber(deps: Pick<Connections, "prisma" | "queues">, number: string) {
  const orders = await deps.prisma.order.findMany({
    where: { number },
    select: { id: true, site_id: true, number: true, erp_sales_order_number: true, imported: true, verified: true, failed_at: true, failure: true, created_at: true, site: { select: { name: true } } },
    orderBy: { id: "asc" },
    take: 20,
  });
  return Promise.all(
    orders.map(async (order) => ({
      id: order.id,
      site: order.site_id,
      site_name: order.site.name,
      number: order.number,
      erp_sales_order_number: order.erp_sales_order_number,
      created_at: formatDateTime(order.created_at),
      failed_at: formatDateTime(order.failed_at),
      ...orderLifecycleFields(await orderLifecycle(deps, order)),
    })),
  );
}

import { AppError } from "@mw/platform/core";
import type { Logger } from "@mw/platform/logging";
import { missingRow } from "@mw/platform/database";
import { retryUnlessFailedForGood, type JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { ErpClient, erpNotConfigured, ERP_NOT_CONFIGURED, isDuplicateSalesOrder, isErpClientRefusal, type SalesOrderInput } from "@mw/providers/erp";
import { raiseOperatorAlert } from "../notifications/index.ts";
import { recordSyncError } from "../sites/index.ts";
import { toSalesOrder } from "./erp-sales-order.ts";
import { findOrderWithDetails, markOrderExported, markOrderFailed, ordersAwaitingExport } from "./export-state.ts";
import { orderExportJob, orderExportJobId } from "./jobs.ts";
import { queuePendingVerifications, queueVerification } from "./verification-queue.ts";

/** Younger orders are still being queued by the intake itself. */
const SWEEP_MIN_AGE_MS = 60_000;
const SWEEP_BATCH = 500;

/**
 * Pushes one order to the ERP and stores the ERP sales order number. Safe to
 * run twice: an exported order is left alone, and the ERP is asked for the
 * order by our external number before anything is created there. `endsJob`
 * says whether a failure is the job's last word (operators hear of it then).
 */
export async function exportOrder(
  deps: Pick<Connections, "prisma" | "redis" | "queues" | "config"> & Pick<JobRun, "log">,
  orderId: number,
  endsJob: (error: unknown) => boolean,
) {
  const order = await findOrderWithDetails(deps, orderId);
  if (!order) throw missingRow(`order ${orderId}`, deps.config, "order_not_found");
  const log = deps.log.child({ order_id: order.id, order_number: order.number, site_id: order.site_id });
  if (order.imported === 1) {
    log.info("order already exported, nothing to do", { erp_sales_order_number: order.erp_sales_order_number });
    if (order.verified === 0) await queueVerification(deps, order);
    return { skipped: "already_exported", erp_sales_order_number: order.erp_sales_order_number };
  }
  try {
    const erp = ErpClient.fromConfig(deps.config, deps.redis);
    if (!erp) throw erpNotConfigured();
    log.info("exporting order to the ERP");
    const number = await findOrCreateSalesOrder(erp, toSalesOrder(order), log);
    const stored = await markOrderExported(deps, order.id, number);
    log.info(stored ? "order exported" : "order was marked exported by another run meanwhile", { erp_sales_order_number: number });
    await queueVerification(deps, order);
    return { erp_sales_order_number: number };
  } catch (error) {
    const clientRefused = isErpClientRefusal(error);
    if (clientRefused) {
      // Not the order's fault: retried, and after its attempts the sweep's next round tries again.
      (error as AppError).permanent = false;
      await refusedClientAlert(deps, error as AppError);
    }
    // Earlier attempts are retried; operators hear about a failure once, when it ends the job.
    if (endsJob(error)) {
      const message = (error as Error).message;
      await Promise.all([
        recordSyncError(deps, { source: "erp_export", order_number: order.number, site_id: order.site_id, message }),
        // An export refused for want of an ERP, or of its client credentials, waits rather than fails: the sweep exports it once they are set right.
        message === ERP_NOT_CONFIGURED || clientRefused ? null : markOrderFailed(deps, order.id, message),
      ]).catch((recordError: unknown) => log.error("could not record the export failure", { error: (recordError as Error).message }));
    }
    throw error;
  }
}

/** One operator alert (keyed: every refused export raises the same one) while the ERP's token endpoint refuses the client credentials. */
function refusedClientAlert(deps: Pick<Connections, "queues">, error: AppError): Promise<void> {
  return raiseOperatorAlert(deps, {
    key: "erp-client-credentials",
    subject: "Order exports wait: the ERP refused the platform's client credentials",
    text: [
      `The ERP's token endpoint refused the platform's client credentials: ${error.message}`,
      "ERP_CLIENT_ID or ERP_CLIENT_SECRET (or ERP_SCOPE) is wrong: put it right and restart the worker.",
      "No order is failed for it: they wait, and the order sweep exports them once the ERP takes the credentials.",
    ].join("\n\n"),
  });
}

async function findOrCreateSalesOrder(erp: ErpClient, body: SalesOrderInput, log: Logger): Promise<string> {
  const ext = body.externalDocumentNumber;
  // A run that crashed after the ERP created the order, but before we stored its number, must not create a second one.
  const existing = await erp.findSalesOrderByExternalNumber(ext);
  if (existing) {
    log.info("ERP already holds the sales order", { external_document_number: ext, erp_sales_order_number: existing.number });
    return existing.number;
  }
  try {
    const created = await erp.createSalesOrder(body);
    log.info("ERP sales order created", { external_document_number: ext, erp_sales_order_number: created.number });
    return created.number;
  } catch (error) {
    // Another run created it between our lookup and our POST.
    const raced = isDuplicateSalesOrder(error) ? await erp.findSalesOrderByExternalNumber(ext) : null;
    if (!raced) throw error;
    log.info("ERP sales order was created by another run", { external_document_number: ext, erp_sales_order_number: raced.number });
    return raced.number;
  }
}

/**
 * Safety net behind the intake's own enqueue: queues an export for every
 * order still pending. The job id per order makes a second sweep (or the
 * intake's job) a no-op in BullMQ rather than a duplicate export.
 */
export async function sweepOrderExports(deps: Pick<Connections, "prisma" | "queues" | "config"> & Pick<JobRun, "log">) {
  if (!deps.config.ERP_BASE_URL) {
    deps.log.info("ERP is not configured, order sweep skipped");
    return { skipped: "erp_not_configured" };
  }
  const pending = await ordersAwaitingExport(deps, new Date(Date.now() - SWEEP_MIN_AGE_MS), SWEEP_BATCH);
  const queue = deps.queues.get(orderExportJob.queue);
  let retried = 0;
  for (const order of pending) {
    const id = orderExportJobId(order.id);
    // An export whose attempts ran out during an ERP outage, or whose worker died under it twice,
    // gets another round; a permanent failure waits for an operator instead.
    // The sweep runs only with the ERP configured: an export refused for want of it waited, it was not refused for good.
    const verdict = await retryUnlessFailedForGood(queue, id, { retryReasons: [ERP_NOT_CONFIGURED] });
    if (verdict === "missing") await deps.queues.add(orderExportJob, { order_id: order.id, order_number: order.number, site_id: order.site_id }, { jobId: id });
    if (verdict === "retried") retried += 1;
  }
  const verifying = await queuePendingVerifications(deps);
  deps.log.info("order sweep queued exports for pending orders", { pending: pending.length, retried, verifying });
  return { pending: pending.length, retried, verifying };
}

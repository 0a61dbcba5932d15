import { orderExportJob, orderExportJobId, type orderSweepJob } from "@mw/shared/orders";
import { AppError, recordSyncError, retryUnlessFailedForGood, type PayloadOf, type Logger, type Prisma } from "@mw/platform";
import { ErpClient, erpNotConfigured, ERP_NOT_CONFIGURED, isDuplicateSalesOrder, ACCOUNT_KEYS, type SalesOrderInput, type SalesOrderLineInput } from "@mw/providers/erp";
import type { Job } from "bullmq";
import { endsJob } from "../../runtime/attempts.ts";
import type { JobContext } from "../../runtime/processor.ts";
import { queuePendingVerifications, queueVerification } from "./verification-queue.ts";

export type OrderWithDetails = Prisma.OrderGetPayload<{ include: { lines: true; addresses: true } }>;
type Address = OrderWithDetails["addresses"][number];

const BILLING = 1;
const SHIPPING = 0;
/** Coupons and store credit mean "this much off" whatever sign the submitter used (docs/erp-api.md). */
const CREDIT_KEYS = new Set<string>(["COUPON", "STORE CREDIT"]);

/** Younger orders are still being queued by the intake itself. */
const SWEEP_MIN_AGE_MS = 60_000;
const SWEEP_BATCH = 500;

/**
 * Pushes one order to the ERP and stores the ERP sales order number. Safe to
 * run twice: an exported order is left alone, and the ERP is asked for the
 * order by our external number before anything is created there.
 */
export async function orderExport(job: Job, payload: PayloadOf<typeof orderExportJob>, ctx: JobContext) {
  const order = await ctx.prisma.order.findUnique({
    where: { id: payload.order_id },
    include: { lines: { orderBy: { line: "asc" } }, addresses: true },
  });
  if (!order) throw AppError.permanent(`order ${payload.order_id} does not exist`, "order_not_found");
  const log = ctx.log.child({ order_id: order.id, order_number: order.number, site_id: order.site_id });
  if (order.imported === 1) {
    log.info("order already exported, nothing to do", { erp_sales_order_number: order.erp_sales_order_number });
    if (order.verified === 0) await queueVerification(ctx, order);
    return { skipped: "already_exported", erp_sales_order_number: order.erp_sales_order_number };
  }
  try {
    const erp = ErpClient.fromConfig(ctx.config);
    if (!erp) throw erpNotConfigured();
    log.info("exporting order to the ERP");
    const number = await findOrCreateSalesOrder(erp, toSalesOrder(order), log);
    const stored = await ctx.prisma.order.updateMany({
      where: { id: order.id, imported: 0 },
      data: { imported: 1, erp_sales_order_number: number, imported_at: new Date() },
    });
    log.info(stored.count ? "order exported" : "order was marked exported by another run meanwhile", { erp_sales_order_number: number });
    await queueVerification(ctx, order);
    return { erp_sales_order_number: number };
  } catch (error) {
    // Earlier attempts are retried; operators hear about a failure once, when it ends the job.
    if (endsJob(job, error)) {
      await recordSyncError(ctx.prisma, { source: "erp_export", order_number: order.number, site_id: order.site_id, message: (error as Error).message }).catch(
        (recordError: unknown) => log.error("could not record the export failure", { error: (recordError as Error).message }),
      );
    }
    throw error;
  }
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

/** The order as an ERP sales order (docs/erp-api.md, "POST /salesOrders"). */
export function toSalesOrder(order: OrderWithDetails): SalesOrderInput {
  const billing = order.addresses.find((a) => a.type === BILLING);
  const shipping = order.addresses.find((a) => a.type === SHIPPING);
  if (!billing || !shipping) throw AppError.permanent(`order ${order.number} has no ${billing ? "shipping" : "billing"} address`, "order_incomplete");
  return {
    externalDocumentNumber: `${order.site_id}-${order.number}`,
    orderDate: order.dateadded.toISOString().slice(0, 10),
    customerNumber: String(order.contact_id),
    shippingAgentCode: order.shipping_agent_code,
    shippingAgentServiceCode: order.shipping_agent_service,
    externalTransactionId: order.trans_id ?? undefined,
    email: billing.email,
    phoneNumber: billing.phone ?? undefined,
    billToName: personName(billing),
    billToCompany: billing.company ?? undefined,
    billToAddressLine1: billing.address1,
    billToAddressLine2: billing.address2 ?? undefined,
    billToCity: billing.city,
    billToState: billing.state,
    billToPostCode: billing.postal_code,
    billToCountry: billing.country,
    shipToName: personName(shipping),
    shipToCompany: shipping.company ?? undefined,
    shipToAddressLine1: shipping.address1,
    shipToAddressLine2: shipping.address2 ?? undefined,
    shipToCity: shipping.city,
    shipToState: shipping.state,
    shipToPostCode: shipping.postal_code,
    shipToCountry: shipping.country,
    shipToPhoneNumber: shipping.phone ?? undefined,
    salesOrderLines: order.lines.map(toSalesOrderLine),
  };
}

function toSalesOrderLine(line: OrderWithDetails["lines"][number]): SalesOrderLineInput {
  const account = (ACCOUNT_KEYS as readonly string[]).includes(line.sku);
  const price = line.price.toNumber();
  return {
    sequence: line.line,
    lineType: account ? "Account" : "Item",
    lineObjectNumber: line.sku,
    quantity: line.quantity,
    unitPrice: CREDIT_KEYS.has(line.sku) ? -Math.abs(price) : price,
    discountAmount: line.discount_amount.toNumber(),
    description: line.coupon_code ?? undefined,
  };
}

function personName(address: Address): string {
  return `${address.first_name} ${address.last_name}`;
}

/**
 * Safety net behind the intake's own enqueue: queues an export for every
 * order still pending. The job id per order makes a second sweep (or the
 * intake's job) a no-op in BullMQ rather than a duplicate export.
 */
export async function orderSweep(_job: Job, _payload: PayloadOf<typeof orderSweepJob>, ctx: JobContext) {
  if (!ctx.config.ERP_BASE_URL) {
    ctx.log.info("ERP is not configured, order sweep skipped");
    return { skipped: "erp_not_configured" };
  }
  const pending = await ctx.prisma.order.findMany({
    where: { imported: 0, created_at: { lt: new Date(Date.now() - SWEEP_MIN_AGE_MS) } },
    orderBy: { created_at: "asc" },
    take: SWEEP_BATCH,
    select: { id: true, number: true, site_id: true },
  });
  const queue = ctx.queues.get(orderExportJob.queue);
  let retried = 0;
  for (const order of pending) {
    const id = orderExportJobId(order.id);
    // An export whose attempts ran out during an ERP outage, or whose worker died under it twice,
    // gets another round; a permanent failure waits for an operator instead.
    // The sweep runs only with the ERP configured: an export refused for want of it waited, it was not refused for good.
    const verdict = await retryUnlessFailedForGood(queue, id, { retryReasons: [ERP_NOT_CONFIGURED] });
    if (verdict === "missing") await ctx.queues.add(orderExportJob, { order_id: order.id, order_number: order.number, site_id: order.site_id }, { jobId: id });
    if (verdict === "retried") retried += 1;
  }
  const verifying = await queuePendingVerifications(ctx);
  ctx.log.info("order sweep queued exports for pending orders", { pending: pending.length, retried, verifying });
  return { pending: pending.length, retried, verifying };
}

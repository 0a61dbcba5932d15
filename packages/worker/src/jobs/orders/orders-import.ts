import {
  isSystemSku,
  orderExportJob,
  orderExportJobId,
  parseSubmission,
  storefrontAOrderBody,
  storefrontBOrderBody,
  storeOrder,
  type ordersImportJob,
  type SubmissionBody,
} from "@mw/shared/orders";
import { AppError, recordSyncError, type Logger, type PayloadOf } from "@mw/platform";
import { unknownSkus } from "@mw/shared/inventory";
import { wooStatuses } from "@mw/providers/storefront-b";
import { finishRun, orderImportEnabled, startRun, storefrontAClientFor, storefrontBClientFor, type OrderImportCounts, type Site } from "@mw/shared/sites";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

const SOURCE = "orders_import";

/**
 * How far back each run looks before the last one started: an order modified
 * while that run was reading may not have been in its pages. Importing is
 * idempotent (an order already stored is left alone), so the overlap costs
 * only a few rows read twice.
 */
export const IMPORT_OVERLAP_MS = 5 * 60_000;

interface Listed {
  number: string;
  body?: SubmissionBody;
  /** Why the storefront's order could not be read as a submission. */
  unreadable?: string;
}

function read(number: string, raw: unknown, toBody: (raw: unknown) => SubmissionBody): Listed {
  try {
    return { number, body: toBody(raw) };
  } catch (error) {
    return { number, unreadable: `storefront order ${number} could not be read: ${(error as Error).message.split("\n")[0]}` };
  }
}

/** The site's orders in its status filters (and channel) changed since `since`, each as an intake submission. */
async function listOrders(site: Site, ctx: JobContext, since: Date | undefined, log: Logger): Promise<Listed[]> {
  const codes = site.status_filters.split(",").map(Number).filter(Number.isInteger);
  if (site.platform === "storefront_a") {
    const client = storefrontAClientFor(site, ctx.config);
    const channel = (site.channel_filter as { channel_id?: unknown } | null)?.channel_id;
    const listed: Listed[] = [];
    for (const statusId of codes) {
      const orders = await client.listOrders({ statusId, channelId: typeof channel === "number" ? channel : undefined, modifiedSince: since, lineItems: true });
      listed.push(...orders.map((order) => read(String(order.id), order, storefrontAOrderBody)));
    }
    return listed;
  }
  const { statuses, unknown } = wooStatuses(codes);
  if (unknown.length) log.warn("status filters with no WooCommerce status are ignored", { status_codes: unknown });
  if (!statuses.length) return [];
  const orders = await storefrontBClientFor(site, ctx.config).listOrders(statuses, { modifiedAfter: since });
  return orders.map((order) => read(order.number, order, storefrontBOrderBody));
}

/**
 * `orders-import` (spec 1, 2.2 `orders_sync`): one site's new and changed
 * storefront orders, stored as external orders through the intake's rules
 * (validation, truncation, SKU check) and queued for export. An order the
 * site already has (pushed by the ERP, or imported before) is left as it is,
 * so an order arriving both ways is stored once. `order_last_run` moves to
 * the run's start only when the run completes; each run leaves a `sync_runs`
 * row with its counts, and each refused order a sync error naming why.
 */
export async function ordersImport(job: Job, payload: PayloadOf<typeof ordersImportJob>, ctx: JobContext) {
  const site = await ctx.prisma.site.findUnique({ where: { id: payload.site_id } });
  const log = ctx.log.child({ site_id: payload.site_id });
  if (!site) {
    log.info("order import skipped: the site no longer exists");
    return { skipped: "site_not_found" };
  }
  if (!orderImportEnabled(site)) {
    log.info("order import skipped: orders sync is off for the site", { is_active: site.is_active, orders_sync: site.orders_sync });
    return { skipped: "orders_sync_off" };
  }
  const started = new Date();
  const since = site.order_last_run ? new Date(site.order_last_run.getTime() - IMPORT_OVERLAP_MS) : undefined;
  const runId = await startRun(ctx.prisma, site.id, "orders", job.id);
  const counts: OrderImportCounts = { orders: 0, imported: 0, already_stored: 0, rejected: 0 };
  try {
    log.info("reading storefront orders", { modified_since: since?.toISOString() ?? "any time" });
    const listed = await listOrders(site, ctx, since, log);
    counts.orders = listed.length;
    for (const [i, order] of listed.entries()) {
      counts[await importOne(ctx, site, order, log)] += 1;
      await ctx.progress(i + 1, listed.length, "orders");
    }
    await ctx.prisma.site.updateMany({ where: { id: site.id }, data: { order_last_run: started } });
    await finishRun(ctx.prisma, runId, "orders", { counts });
    log.info("order import finished", counts);
    return { run_id: runId, counts };
  } catch (error) {
    await finishRun(ctx.prisma, runId, "orders", { counts, error: (error as Error).message }).catch((finish: unknown) =>
      log.error("could not close the sync run", { error: (finish as Error).message }),
    );
    throw error;
  }
}

/** A refused order is listed again by every run while it stays in the overlap window; it is one error for operators, not one per run. */
const REFUSAL_REPEAT_MS = 24 * 3600_000;

async function refuse(ctx: JobContext, site: Site, number: string, message: string, log: Logger): Promise<"rejected"> {
  log.warn("storefront order refused", { order_number: number, reason: message });
  const orderNumber = number.slice(0, 20);
  const known = await ctx.prisma.syncError.findFirst({
    where: { source: SOURCE, site_id: site.id, order_number: orderNumber, message, created_at: { gte: new Date(Date.now() - REFUSAL_REPEAT_MS) } },
    select: { id: true },
  });
  if (!known) await recordSyncError(ctx.prisma, { source: SOURCE, site_id: site.id, order_number: orderNumber, message });
  return "rejected";
}

async function importOne(ctx: JobContext, site: Site, listed: Listed, log: Logger): Promise<"imported" | "already_stored" | "rejected"> {
  if (!listed.body) return refuse(ctx, site, listed.number, listed.unreadable!, log);
  let order;
  try {
    order = parseSubmission(listed.body, ctx.config.DEFAULT_CARRIER_CODE);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return refuse(ctx, site, listed.number, `storefront order ${listed.number}: ${error.message}`, log);
  }
  const stored = await ctx.prisma.order.findUnique({ where: { site_id_number: { site_id: site.id, number: order.number } }, select: { id: true } });
  if (stored) return "already_stored";
  const unknown = await unknownSkus(ctx.prisma, order.lines.map((line) => line.sku).filter((sku) => !isSystemSku(sku)));
  if (unknown.length) return refuse(ctx, site, order.number, `storefront order ${order.number}: Unknown SKU(s): ${unknown.join(", ")}`, log);
  const outcome = await storeOrder(ctx.prisma, ctx.sql, site.id, order);
  // The ERP pushed it between our look and our insert: stored once, by whoever came first.
  if (outcome.kind !== "created") return "already_stored";
  await ctx.queues.add(orderExportJob, { order_id: outcome.orderId, order_number: order.number, site_id: site.id }, { jobId: orderExportJobId(outcome.orderId) });
  log.info("storefront order imported", { order_id: outcome.orderId, order_number: order.number });
  return "imported";
}

import { unknownSkus } from "../inventory/index.ts";
import { recordSyncErrorOnce } from "../sites/index.ts";
import { AppError } from "@mw/platform/core";
import type { Logger } from "@mw/platform/logging";
import type { Connections } from "@mw/platform/connections";
import { orderExportJob, orderExportJobId } from "./jobs.ts";
import { storeOrder } from "./store.ts";
import type { SubmissionBody } from "./storefront-orders.ts";
import { isSystemSku, parseSubmission } from "./submission.ts";

const SOURCE = "orders_import";

/** A refused order is listed again by every run while it stays in the overlap window; it is one error for operators, not one per run. */
const REFUSAL_REPEAT_MS = 24 * 3600_000;

/** A storefront order as an import run listed it: as an intake submission, or why it could not be read as one. */
export interface ListedOrder {
  number: string;
  body?: SubmissionBody;
  unreadable?: string;
}

type Deps = Pick<Connections, "prisma" | "sql" | "queues" | "config">;

async function refuse(deps: Deps, siteId: number, number: string, message: string, log: Logger): Promise<"rejected"> {
  log.warn("storefront order refused", { order_number: number, reason: message });
  const orderNumber = number.slice(0, 20);
  await recordSyncErrorOnce(deps, { source: SOURCE, site_id: siteId, order_number: orderNumber, message }, new Date(Date.now() - REFUSAL_REPEAT_MS));
  return "rejected";
}

/**
 * One storefront order of an import run (spec 1, 2.2 `orders_sync`), stored
 * as an external order through the intake's rules (validation, truncation,
 * SKU check) and queued for export. An order the site already has (pushed
 * by the ERP, or imported before) is left as it is; a refused one is a sync
 * error naming why.
 */
export async function importStorefrontOrder(deps: Deps, siteId: number, listed: ListedOrder, log: Logger): Promise<"imported" | "already_stored" | "rejected"> {
  if (!listed.body) return refuse(deps, siteId, listed.number, listed.unreadable!, log);
  let order;
  try {
    order = parseSubmission(listed.body, deps.config.DEFAULT_CARRIER_CODE);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return refuse(deps, siteId, listed.number, `storefront order ${listed.number}: ${error.message}`, log);
  }
  const stored = await deps.prisma.order.findUnique({ where: { site_id_number: { site_id: siteId, number: order.number } }, select: { id: true } });
  if (stored) return "already_stored";
  const unknown = await unknownSkus(deps, order.lines.map((line) => line.sku).filter((sku) => !isSystemSku(sku)));
  if (unknown.length) return refuse(deps, siteId, order.number, `storefront order ${order.number}: Unknown SKU(s): ${unknown.join(", ")}`, log);
  const outcome = await storeOrder(deps, siteId, order);
  // The ERP pushed it between our look and our insert: stored once, by whoever came first.
  if (outcome.kind !== "created") return "already_stored";
  await deps.queues.add(orderExportJob, { order_id: outcome.orderId, order_number: order.number, site_id: siteId }, { jobId: orderExportJobId(outcome.orderId) });
  log.info("storefront order imported", { order_id: outcome.orderId, order_number: order.number });
  return "imported";
}

import { AppError, errors } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";
import type { KnownSkus } from "../inventory/index.ts";
import { orderExportJob, orderExportJobId } from "./jobs.ts";
import { storeOrder } from "./store.ts";
import { isSystemSku, parseSubmission, type NormalisedOrder } from "./submission.ts";

type IntakeDeps = Pick<Connections, "config" | "prisma" | "sql" | "queues"> & { knownSkus: Pick<KnownSkus, "unknown"> };

/** What became of a submission that passed validation. */
type IntakeOutcome =
  /** Stored, its export queued. */
  | { outcome: "created"; orderId: number; order: NormalisedOrder }
  /** Stored before with the same content: a client retry. */
  | { outcome: "same"; orderId: number; order: NormalisedOrder }
  /** The site has an order of that number with other content: nothing changed. */
  | { outcome: "duplicate"; order: NormalisedOrder }
  /** SKUs the catalogue does not have: nothing stored. */
  | { outcome: "unknown_skus"; order: NormalisedOrder; unknownSkus: string[] };

/**
 * Order intake (spec 1, 4.1): validate (parseSubmission's errors are thrown),
 * check the SKUs, store in one transaction (OrderWriter), queue the export.
 * A database failure is `db_error` with nothing stored; a queue failure after
 * the order is stored is `queue_unavailable` (the periodic sweep exports it,
 * and a retry of the request queues it at once).
 */
export async function receiveOrder(deps: IntakeDeps, siteId: number, body: unknown): Promise<IntakeOutcome> {
  const order = parseSubmission(body, deps.config.DEFAULT_CARRIER_CODE);
  const unknownSkus = await guardDb(() => deps.knownSkus.unknown(order.lines.map((line) => line.sku).filter((sku) => !isSystemSku(sku))));
  if (unknownSkus.length) return { outcome: "unknown_skus", order, unknownSkus };
  const stored = await guardDb(() => storeOrder(deps, siteId, order));
  if (stored.kind === "conflict") return { outcome: "duplicate", order };
  // A retry of an order whose export was never queued gets it queued now; the job id makes this a no-op otherwise.
  if (stored.kind === "created" || stored.imported === 0) await queueExport(deps, { order_id: stored.orderId, order_number: order.number, site_id: siteId });
  return { outcome: stored.kind, orderId: stored.orderId, order };
}

async function guardDb<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(500, "db_error", "The order could not be stored: database error.", {}, { cause: error });
  }
}

async function queueExport(deps: Pick<Connections, "queues">, order: { order_id: number; order_number: string; site_id: number }): Promise<void> {
  try {
    await deps.queues.add(orderExportJob, order, { jobId: orderExportJobId(order.order_id) });
  } catch (error) {
    // The order is stored and the periodic sweep will export it; a retry of this request queues it at once.
    throw errors.queueUnavailable("The order was stored but its export could not be queued", error);
  }
}

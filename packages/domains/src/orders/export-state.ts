import type { Connections } from "@mw/platform/connections";
import { ordersWithSyncErrors } from "../sites/index.ts";
import type { OrderWithDetails } from "./erp-sales-order.ts";

type Db = Pick<Connections, "prisma">;

/** The source of the sync error a read-back records when the ERP's copy differs. */
export const VERIFY_SOURCE = "erp_verify";

/** The order with its lines (by line number) and addresses; null when there is none. */
export function findOrderWithDetails(deps: Db, id: number): Promise<OrderWithDetails | null> {
  return deps.prisma.order.findUnique({ where: { id }, include: { lines: { orderBy: { line: "asc" } }, addresses: true } });
}

/** Stores the ERP sales order number of an exported order; false when another run marked it exported meanwhile. */
export async function markOrderExported(deps: Db, id: number, salesOrderNumber: string): Promise<boolean> {
  const stored = await deps.prisma.order.updateMany({ where: { id, imported: 0 }, data: { imported: 1, erp_sales_order_number: salesOrderNumber, imported_at: new Date(), failed_at: null, failure: null } });
  return stored.count > 0;
}

/** The ERP holds what was sent: the order stops counting as `pending_verify`. */
export async function markOrderVerified(deps: Db, id: number): Promise<void> {
  await deps.prisma.order.updateMany({ where: { id, verified: 0 }, data: { verified: 1, failed_at: null, failure: null } });
}

/**
 * The export or the read-back of an order failed for good (its job ended, or
 * the ERP's copy differs): the order lists as `failed`, with why, until an
 * export or a read-back succeeds. The first failure's time is kept when the
 * same failure is recorded again (a read-back run twice).
 */
export async function markOrderFailed(deps: Db, id: number, failure: string): Promise<void> {
  await deps.prisma.$executeRaw`UPDATE orders SET failed_at = COALESCE(failed_at, NOW(3)), failure = ${failure} WHERE id = ${id}`;
}

/** Orders not exported yet that arrived before `before`, oldest first, at most `take`. */
export function ordersAwaitingExport(deps: Db, before: Date, take: number) {
  return deps.prisma.order.findMany({
    where: { imported: 0, created_at: { lt: before } },
    orderBy: { created_at: "asc" },
    take,
    select: { id: true, number: true, site_id: true },
  });
}

/**
 * Orders exported before `before` and not verified yet, oldest export first,
 * at most `take`, less those whose read-back found a mismatch (a sync error
 * of VERIFY_SOURCE): those wait for an operator.
 */
export async function ordersAwaitingVerification(deps: Db, before: Date, take: number) {
  const exported = await deps.prisma.order.findMany({
    where: { imported: 1, verified: 0, imported_at: { lt: before } },
    orderBy: { imported_at: "asc" },
    take,
    select: { id: true, number: true, site_id: true },
  });
  if (!exported.length) return [];
  const mismatched = await ordersWithSyncErrors(deps, VERIFY_SOURCE, exported.map((order) => order.number));
  const settled = new Set(mismatched.map((row) => `${row.site_id}/${row.order_number}`));
  return exported.filter((candidate) => !settled.has(`${candidate.site_id}/${candidate.number}`));
}

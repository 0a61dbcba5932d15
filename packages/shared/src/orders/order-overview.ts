import type { Connections } from "../platform/connections.ts";
import { startOfUtcDay } from "../platform/time.ts";

export interface OrderCounts {
  pending_insert: number;
  pending_verify: number;
  imported_today: number;
}

/** Orders waiting for export, exported but not yet verified, and exported since midnight UTC. */
export async function orderCounts({ prisma }: Pick<Connections, "prisma">): Promise<OrderCounts> {
  const [pendingInsert, pendingVerify, importedToday] = await Promise.all([
    prisma.order.count({ where: { imported: 0 } }),
    prisma.order.count({ where: { imported: 1, verified: 0 } }),
    prisma.order.count({ where: { imported: 1, imported_at: { gte: startOfUtcDay() } } }),
  ]);
  return { pending_insert: pendingInsert, pending_verify: pendingVerify, imported_today: importedToday };
}

/** The failures workers recorded in the last 24 hours: how many, and the latest `limit` of all, newest first. */
export async function recentSyncErrors({ prisma }: Pick<Connections, "prisma">, limit: number) {
  const dayAgo = new Date(Date.now() - 24 * 3600_000);
  const [count, recent] = await Promise.all([
    prisma.syncError.count({ where: { created_at: { gte: dayAgo } } }),
    prisma.syncError.findMany({ orderBy: { id: "desc" }, take: limit, select: { order_number: true, message: true, created_at: true } }),
  ]);
  return { count, recent };
}

/** The orders with this number (one per site; the first 20), for finding their jobs. */
export function ordersByNumber({ prisma }: Pick<Connections, "prisma">, number: string): Promise<{ id: number; site_id: number }[]> {
  return prisma.order.findMany({ where: { number }, select: { id: true, site_id: true }, take: 20 });
}

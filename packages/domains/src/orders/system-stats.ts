import { formatDateTime, startOfUtcDay } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";
import { recentSyncErrors, siteCounts } from "../sites/index.ts";
import { countKeptOrders } from "./order-reads.ts";

const RECENT_ERRORS = 10;

/** The numbers of GET /stats (spec 1, 4.3), also shown on the operators' console page; counts that tolerate lag, from the replica: the orders in flight summed from the kept counts, today's exports a range of an index. */
export async function systemStats(deps: Pick<Connections, "replica">) {
  const dayAgo = new Date(Date.now() - 24 * 3600_000);
  const db = { prisma: deps.replica };
  const [sites, pendingInsert, pendingVerify, importedToday, errors] = await Promise.all([
    siteCounts(db),
    countKeptOrders(deps.replica, { imported: 0 }),
    countKeptOrders(deps.replica, { imported: 1, verified: 0 }),
    db.prisma.order.count({ where: { imported: 1, imported_at: { gte: startOfUtcDay() } } }),
    recentSyncErrors(db, dayAgo, RECENT_ERRORS),
  ]);
  return {
    sites,
    orders: { pending_insert: pendingInsert, pending_verify: pendingVerify, imported_today: importedToday },
    errors: {
      count: errors.count,
      recent: errors.recent.map((row) => ({ order_number: row.order_number, message: row.message, created_at: formatDateTime(row.created_at)! })),
    },
  };
}

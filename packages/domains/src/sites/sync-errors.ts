import { truncateCodePoints } from "@mw/platform/text";
import type { Connections } from "@mw/platform/connections";

type Db = Pick<Connections, "prisma">;

interface SyncErrorEntry {
  source: string;
  message: string;
  order_number?: string | null;
  site_id?: number | null;
}

/**
 * Workers record failures operators must see (GET /stats `errors`) here, on
 * top of the job's own failed state in Bull Board. Messages are cut to what
 * a person reads; the full error stays in the log.
 */
export async function recordSyncError(deps: Db, entry: SyncErrorEntry): Promise<void> {
  await deps.prisma.syncError.create({
    data: {
      source: truncateCodePoints(entry.source, 32),
      message: truncateCodePoints(entry.message, 2000),
      order_number: entry.order_number ? truncateCodePoints(entry.order_number, 20) : null,
      site_id: entry.site_id ?? null,
    },
  });
}

/**
 * Records the failure unless the same one (source, site, order number and
 * message) is recorded already, since `since` when given: a job that finds
 * the same problem again on a later run shows it to operators once.
 */
export async function recordSyncErrorOnce(deps: Db, entry: SyncErrorEntry & { site_id: number | null; order_number: string }, since?: Date): Promise<void> {
  const known = await deps.prisma.syncError.findFirst({
    where: { source: entry.source, site_id: entry.site_id, order_number: entry.order_number, message: entry.message, ...(since ? { created_at: { gte: since } } : {}) },
    select: { id: true },
  });
  if (!known) await recordSyncError(deps, entry);
}

/** How many failures were recorded since `since`, and the newest `take` of all (GET /stats). */
export async function recentSyncErrors(deps: Db, since: Date, take: number) {
  const [count, recent] = await Promise.all([
    deps.prisma.syncError.count({ where: { created_at: { gte: since } } }),
    deps.prisma.syncError.findMany({ orderBy: { id: "desc" }, take }),
  ]);
  return { count, recent };
}

/** The (site, order number) pairs among `orderNumbers` that have a sync error from `source`. */
export async function ordersWithSyncErrors(deps: Db, source: string, orderNumbers: string[]): Promise<{ site_id: number | null; order_number: string | null }[]> {
  return deps.prisma.syncError.findMany({ where: { source, order_number: { in: orderNumbers } }, select: { order_number: true, site_id: true } });
}

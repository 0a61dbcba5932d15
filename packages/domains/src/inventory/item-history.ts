import { chunks, type Connections, type JobRun } from "@mw/platform";

const DAY_MS = 86_400_000;
/** Spec 1, section 8: item history is kept 3 days. */
const HISTORY_DAYS = 3;
const HISTORY_BATCH = 1000;
const DELETE_BATCH = 5000;

/** One stock level the storefront took: the ERP's figure and what was set. */
interface StockPushed {
  sku: string;
  erp_stock: number;
  pushed_stock: number;
}

/** An `item_history` row per stock level a site's storefront took. */
export async function recordItemHistory(deps: Pick<Connections, "prisma">, siteId: number, pushed: StockPushed[]): Promise<void> {
  for (const batch of chunks(pushed, HISTORY_BATCH)) {
    await deps.prisma.itemHistory.createMany({ data: batch.map((row) => ({ site_id: siteId, sku: row.sku.slice(0, 64), erp_stock: row.erp_stock, pushed_stock: row.pushed_stock })) });
  }
}

/** Item history older than `cutoff` goes, a batch at a time so no statement holds locks for long; answers how many rows. */
async function deleteItemHistoryBefore(deps: Pick<Connections, "prisma">, cutoff: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await deps.prisma.$executeRaw`DELETE FROM item_history WHERE synced_at < ${cutoff} ORDER BY id LIMIT ${DELETE_BATCH}`;
    deleted += count;
    if (count < DELETE_BATCH) break;
  }
  return deleted;
}

/** `item-history-cleanup`, nightly (spec 1, section 8): item history older than 3 days goes. */
export async function cleanUpItemHistory(deps: Pick<Connections, "prisma"> & Pick<JobRun, "log">) {
  const cutoff = new Date(Date.now() - HISTORY_DAYS * DAY_MS);
  const deleted = await deleteItemHistoryBefore(deps, cutoff);
  deps.log.info("item history older than 3 days removed", { deleted, cutoff: cutoff.toISOString() });
  return { deleted };
}

import { chunks, type Connections } from "@mw/platform";

const HISTORY_BATCH = 1000;
const DELETE_BATCH = 5000;

/** One stock level the storefront took: the ERP's figure and what was set. */
export interface StockPushed {
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
export async function deleteItemHistoryBefore(deps: Pick<Connections, "prisma">, cutoff: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await deps.prisma.$executeRaw`DELETE FROM item_history WHERE synced_at < ${cutoff} ORDER BY id LIMIT ${DELETE_BATCH}`;
    deleted += count;
    if (count < DELETE_BATCH) break;
  }
  return deleted;
}

import { chunks } from "@mw/platform/core";
import { deleteInBatches, retentionCutoff } from "@mw/platform/database";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";

const HISTORY_BATCH = 1000;

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

/**
 * `item-history-cleanup`, nightly (spec 1, section 8): item history older than RETENTION_ITEM_HISTORY_DAYS (3 by
 * default) goes, oldest first, a batch at a time so no statement holds locks for long.
 */
export async function cleanUpItemHistory(deps: Pick<Connections, "prisma" | "config"> & Pick<JobRun, "log">) {
  const cutoff = retentionCutoff(deps.config.RETENTION_ITEM_HISTORY_DAYS);
  const deleted = await deleteInBatches("item_history", { batchSize: deps.config.RETENTION_BATCH_SIZE, log: deps.log }, cutoff, (limit) =>
    deps.prisma.$executeRaw`DELETE FROM item_history WHERE synced_at < ${cutoff} ORDER BY synced_at LIMIT ${limit}`,
  );
  return { deleted };
}

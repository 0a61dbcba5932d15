import type { Connections } from "@mw/platform/connections";

interface InventoryRunSummary {
  site_id: number;
  site_name: string;
  runs: number;
  completed: number;
  failed: number;
  /** The runs' counts (inventoryRunCounts), summed. */
  items: number;
  pushed: number;
  forced_zero: number;
  not_on_storefront: number;
  errors: number;
  last_run_at: Date | null;
}

/** COUNT and SUM arrive as BigInt or Decimal depending on the driver's reading of the type; a SUM over no run is NULL. */
function int(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

/**
 * Inventory runs per site started in `[start, end)`, by site name: how many,
 * how they ended, their summed counts, the last one. Sites with inventory
 * sync on are listed even without a run, so a site that stopped syncing shows.
 */
export async function inventoryRunSummary(deps: Pick<Connections, "prisma">, bounds: { start: Date; end: Date }): Promise<InventoryRunSummary[]> {
  const { start, end } = bounds;
  const rows = await deps.prisma.$queryRaw<Record<string, unknown>[]>`
    SELECT s.id AS site_id, s.name AS site_name, COUNT(r.id) AS runs,
           SUM(r.status = 'completed') AS completed, SUM(r.status = 'failed') AS failed,
           SUM(JSON_VALUE(r.counts, '$.items')) AS items, SUM(JSON_VALUE(r.counts, '$.pushed')) AS pushed,
           SUM(JSON_VALUE(r.counts, '$.forced_zero')) AS forced_zero,
           SUM(JSON_VALUE(r.counts, '$.not_on_storefront')) AS not_on_storefront,
           SUM(JSON_VALUE(r.counts, '$.errors')) AS errors, MAX(r.started_at) AS last_run_at
    FROM sites s
    LEFT JOIN sync_runs r ON r.site_id = s.id AND r.kind = 'inventory' AND r.started_at >= ${start} AND r.started_at < ${end}
    GROUP BY s.id, s.name, s.inventory_sync
    HAVING s.inventory_sync = 1 OR COUNT(r.id) > 0
    ORDER BY s.name, s.id`;
  return rows.map((row) => ({
    site_id: int(row.site_id),
    site_name: String(row.site_name),
    runs: int(row.runs),
    completed: int(row.completed),
    failed: int(row.failed),
    items: int(row.items),
    pushed: int(row.pushed),
    forced_zero: int(row.forced_zero),
    not_on_storefront: int(row.not_on_storefront),
    errors: int(row.errors),
    last_run_at: row.last_run_at instanceof Date ? row.last_run_at : null,
  }));
}

import type { Connections } from "@mw/platform/connections";

/** Per site, how many distinct SKUs the inventory sync recorded in item_history in `[start, end)`. */
export async function syncedSkuCounts(deps: Pick<Connections, "prisma">, bounds: { start: Date; end: Date }): Promise<Map<number, number>> {
  const { start, end } = bounds;
  const rows = await deps.prisma.$queryRaw<{ site_id: number; skus: unknown }[]>`
    SELECT site_id, COUNT(DISTINCT sku) AS skus FROM item_history
    WHERE synced_at >= ${start} AND synced_at < ${end}
    GROUP BY site_id`;
  // COUNT arrives as a BigInt.
  return new Map(rows.map((row) => [Number(row.site_id), Number(row.skus)]));
}

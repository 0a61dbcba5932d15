import type { Connections } from "@mw/platform/connections";

const BATCH = 20_000;

/**
 * Rebuilds what the order list reads instead of scanning orders, from the orders themselves: the search
 * grams (order_search_grams), each gram's number of orders (order_gram_counts) and the per-site counts
 * (order_counts). The triggers keep all three as orders are written, by the platform or by plain SQL;
 * this is for after something bypassed them (a restore of the orders table alone, triggers dropped for a
 * bulk load). Grams go in id ranges of 20,000 orders, each its own short statement, so intake goes on
 * meanwhile; the counts are then recounted each in one transaction, during which intake waits (about a
 * second per million orders for order_counts, several for the gram counts: docs/operations.md).
 */
export async function reindexOrderSearch({ prisma }: Pick<Connections, "prisma">): Promise<{ orders: number; grams: number; seconds: number }> {
  const started = Date.now();
  const [bounds] = await prisma.$queryRaw<{ low: number | null; high: number | null }[]>`SELECT MIN(id) AS low, MAX(id) AS high FROM orders`;
  let grams = 0;
  for (let from = bounds?.low ?? 1; bounds?.high != null && from <= bounds.high; from += BATCH) {
    const to = from + BATCH - 1;
    await prisma.$executeRaw`DELETE FROM order_search_grams WHERE order_id BETWEEN ${from} AND ${to}`;
    grams += await prisma.$executeRaw`CALL order_search_add_range(${from}, ${to})`;
  }
  // Grams of orders deleted while their triggers were away.
  await prisma.$executeRaw`DELETE g FROM order_search_grams g LEFT JOIN orders o ON o.id = g.order_id WHERE o.id IS NULL`;
  await prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`DELETE FROM order_gram_counts`;
      await tx.$executeRaw`INSERT INTO order_gram_counts (gram, slot, orders) SELECT gram, order_id % 4, COUNT(*) FROM order_search_grams GROUP BY gram, order_id % 4`;
    },
    { timeout: 3_600_000 },
  );
  const orders = await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`DELETE FROM order_counts`;
    await tx.$executeRaw`INSERT INTO order_counts (site_id, slot, imported, verified, ship_status, payment_method, failed, orders)
      SELECT site_id, id % 4, imported, verified, ship_status, payment_method, failed_at IS NOT NULL, COUNT(*) FROM orders
      GROUP BY site_id, id % 4, imported, verified, ship_status, payment_method, failed_at IS NOT NULL`;
    const [row] = await tx.$queryRaw<{ total: bigint | number | null }[]>`SELECT SUM(orders) AS total FROM order_counts`;
    return Number(row?.total ?? 0);
  });
  return { orders, grams, seconds: Math.round((Date.now() - started) / 100) / 10 };
}

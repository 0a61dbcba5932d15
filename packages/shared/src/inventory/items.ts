import { z } from "zod";
import { Prisma, type PrismaClient } from "@mw/platform";

/** One catalogue item as the ERP sends it (POST /items, items:import). */
export const itemInput = z.object({
  sku: z.string().trim().min(1).max(64),
  name: z.string().trim().min(1).max(255),
  price: z.number().min(0).max(9_999_999_999.99),
  stock: z.number().int().min(-2_147_483_648).max(2_147_483_647),
});

export type ItemInput = z.output<typeof itemInput>;

export const MAX_ITEMS_PER_UPSERT = 5000;

/**
 * Inserts new SKUs and updates existing ones in one statement per chunk
 * (INSERT ... ON DUPLICATE KEY UPDATE). A SKU given twice keeps its last
 * values. Answers how many SKUs were new and how many already existed.
 */
export async function upsertItems(prisma: PrismaClient, items: ItemInput[]): Promise<{ created: number; updated: number }> {
  const bySku = new Map<string, ItemInput>();
  for (const item of items) bySku.set(item.sku.toLowerCase(), item);
  const unique = [...bySku.values()];
  if (unique.length === 0) return { created: 0, updated: 0 };
  return prisma.$transaction(async (tx) => {
    const existing = await tx.item.count({ where: { sku: { in: unique.map((item) => item.sku) } } });
    for (let start = 0; start < unique.length; start += 1000) {
      const chunk = unique.slice(start, start + 1000);
      const rows = chunk.map((item) => Prisma.sql`(${item.sku}, ${item.name}, ${item.price}, ${item.stock}, NOW(3), NOW(3))`);
      await tx.$executeRaw`INSERT INTO items (sku, name, price, stock, created_at, updated_at) VALUES ${Prisma.join(rows)}
        ON DUPLICATE KEY UPDATE name = VALUES(name), price = VALUES(price), stock = VALUES(stock), updated_at = NOW(3)`;
    }
    return { created: unique.length - existing, updated: existing };
  });
}

import { z } from "zod";
import type { Item } from "@mw/platform/prisma";
import { chunks } from "@mw/platform/core";
import { Prisma } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";

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
export async function upsertItems(deps: Pick<Connections, "prisma">, items: ItemInput[]): Promise<{ created: number; updated: number }> {
  const bySku = new Map<string, ItemInput>();
  for (const item of items) bySku.set(item.sku.toLowerCase(), item);
  const unique = [...bySku.values()];
  if (unique.length === 0) return { created: 0, updated: 0 };
  return deps.prisma.$transaction(async (tx) => {
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

/** Items by SKU, those whose SKU or name contains `search` when given, with how many match in all. */
export async function listItems(deps: Pick<Connections, "prisma">, search: string | undefined, page: { skip: number; take: number }): Promise<{ total: number; rows: Item[] }> {
  const where = search ? { OR: [{ sku: { contains: search } }, { name: { contains: search } }] } : {};
  const [total, rows] = await Promise.all([deps.prisma.item.count({ where }), deps.prisma.item.findMany({ where, orderBy: { sku: "asc" }, ...page })]);
  return { total, rows };
}

/** Every catalogue item's id and SKU. */
export async function catalogueItems(deps: Pick<Connections, "prisma">): Promise<{ id: number; sku: string }[]> {
  return deps.prisma.item.findMany({ select: { id: true, sku: true } });
}

const DELETE_BATCH = 5000;

/** Removes these catalogue items, a batch at a time; answers how many went. */
export async function deleteItems(deps: Pick<Connections, "prisma">, ids: number[]): Promise<number> {
  let deleted = 0;
  for (const batch of chunks(ids, DELETE_BATCH)) deleted += (await deps.prisma.item.deleteMany({ where: { id: { in: batch } } })).count;
  return deleted;
}

import type { Connections } from "@mw/platform/connections";

type Db = Pick<Connections, "prisma">;

/** Whether the catalogue has an item with that id. */
export async function itemExists(deps: Db, id: number): Promise<boolean> {
  return (await deps.prisma.item.count({ where: { id } })) > 0;
}

/** The id of the item with that SKU; null when the catalogue has none. */
export async function itemIdBySku(deps: Db, sku: string): Promise<number | null> {
  const item = await deps.prisma.item.findUnique({ where: { sku }, select: { id: true } });
  return item?.id ?? null;
}

/** The item's SKU and name; null when there is no item with that id. */
export function itemNaming(deps: Db, id: number): Promise<{ sku: string; name: string } | null> {
  return deps.prisma.item.findUnique({ where: { id }, select: { sku: true, name: true } });
}

import type { InvalidatedCache, Invalidation } from "@mw/platform/redis";
import type { PrismaClient } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";

/** Channel of the known-SKU caches: published after catalogue items are deleted. */
export const CATALOGUE_SHRANK = "catalogue";

/**
 * Which SKUs the catalogue has, for the order intake's check (spec 1, 4.1).
 * A SKU found once is remembered: items are added and updated freely but
 * removed only by the SKU cleanup, which publishes CATALOGUE_SHRANK, so a
 * remembered SKU is still there until that message clears every process's
 * memory. SKUs not remembered are looked up, so a new item is known at once.
 */
export class KnownSkus {
  private readonly cache: InvalidatedCache<true>;

  constructor(
    private readonly prisma: PrismaClient,
    invalidation: Invalidation,
  ) {
    this.cache = invalidation.cache<true>(CATALOGUE_SHRANK);
  }

  /** The SKUs among `skus` that the catalogue does not have, in order of first appearance. */
  async unknown(skus: string[]): Promise<string[]> {
    await this.cache.catchUp();
    const wanted = [...new Set(skus)].filter((sku) => !this.cache.get(sku.toLowerCase()));
    if (wanted.length === 0) return [];
    const stamp = this.cache.stamp();
    const known = await catalogueHas(this.prisma, wanted);
    for (const sku of known) this.cache.set(sku, true, stamp);
    return wanted.filter((sku) => !known.has(sku.toLowerCase()));
  }
}

/** The SKUs among `skus` that the catalogue has, in lower case (the column's collation compares case-insensitively). */
async function catalogueHas(prisma: PrismaClient, skus: string[]): Promise<Set<string>> {
  const found = await prisma.item.findMany({ where: { sku: { in: skus } }, select: { sku: true } });
  return new Set(found.map((item) => item.sku.toLowerCase()));
}

/** Non-system SKUs of an order that the catalogue does not have, in order of first appearance, read from the database. */
export async function unknownSkus(deps: Pick<Connections, "prisma">, skus: string[]): Promise<string[]> {
  const wanted = [...new Set(skus)];
  if (wanted.length === 0) return [];
  const known = await catalogueHas(deps.prisma, wanted);
  return wanted.filter((sku) => !known.has(sku.toLowerCase()));
}

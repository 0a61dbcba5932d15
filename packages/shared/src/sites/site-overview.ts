import type { Connections } from "../platform/connections.ts";

export interface SiteCounts {
  total: number;
  active: number;
  storefront_a: number;
  storefront_b: number;
}

/** How many sites there are, how many are active, and how many run on each storefront platform. */
export async function siteCounts({ prisma }: Pick<Connections, "prisma">): Promise<SiteCounts> {
  const [byPlatform, active] = await Promise.all([prisma.site.groupBy({ by: ["platform"], _count: { _all: true } }), prisma.site.count({ where: { is_active: true } })]);
  const perPlatform = (platform: string) => byPlatform.find((row) => row.platform === platform)?._count._all ?? 0;
  return {
    total: perPlatform("storefront_a") + perPlatform("storefront_b"),
    active,
    storefront_a: perPlatform("storefront_a"),
    storefront_b: perPlatform("storefront_b"),
  };
}

/** The names of these sites by id (a job's description names the site it concerns). */
export async function siteNames({ prisma }: Pick<Connections, "prisma">, siteIds: number[]): Promise<Map<number, string>> {
  const ids = [...new Set(siteIds)];
  const sites = ids.length ? await prisma.site.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }) : [];
  return new Map(sites.map((site) => [site.id, site.name]));
}

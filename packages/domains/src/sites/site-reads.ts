import { errors } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";
import type { Platform, Site } from "@mw/platform/prisma";

type Db = Pick<Connections, "prisma">;

/** The site, or null when there is none with that id. */
export function findSite(deps: Db, id: number): Promise<Site | null> {
  return deps.prisma.site.findUnique({ where: { id } });
}

/** The site; 404 "Site not found." when there is none. */
export async function requireSite(deps: Db, id: number): Promise<Site> {
  const site = await findSite(deps, id);
  if (!site) throw errors.notFound("Site not found.");
  return site;
}

/** How many sites there are, how many are active, and how many of each platform (GET /stats). */
export async function siteCounts(deps: Db): Promise<{ total: number; active: number } & Record<Platform, number>> {
  const [byPlatform, active] = await Promise.all([
    deps.prisma.site.groupBy({ by: ["platform"], _count: { _all: true } }),
    deps.prisma.site.count({ where: { is_active: true } }),
  ]);
  const perPlatform = (platform: Platform) => byPlatform.find((row) => row.platform === platform)?._count._all ?? 0;
  return {
    total: perPlatform("storefront_a") + perPlatform("storefront_b"),
    active,
    storefront_a: perPlatform("storefront_a"),
    storefront_b: perPlatform("storefront_b"),
  };
}

/** Every active site with its order-volume test settings, by name. */
export function orderVolumeSites(deps: Db): Promise<Pick<Site, "id" | "name" | "order_volume_window_hours" | "order_volume_min">[]> {
  return deps.prisma.site.findMany({
    where: { is_active: true },
    select: { id: true, name: true, order_volume_window_hours: true, order_volume_min: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
}

/** The names of these sites by id (a job's description names the site it concerns). */
export async function siteNames({ prisma }: Pick<Connections, "prisma">, siteIds: number[]): Promise<Map<number, string>> {
  const ids = [...new Set(siteIds)];
  const sites = ids.length ? await prisma.site.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } }) : [];
  return new Map(sites.map((site) => [site.id, site.name]));
}

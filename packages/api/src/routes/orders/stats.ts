import { formatDateTime, startOfUtcDay, type PrismaClient } from "@mw/platform";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

const count = z.number().int();
const stats = z.object({
  sites: z.object({ total: count, active: count, storefront_a: count, storefront_b: count }),
  orders: z.object({ pending_insert: count, pending_verify: count, imported_today: count }),
  errors: z.object({
    count: count.describe("failures recorded in the last 24 hours"),
    recent: z.array(z.object({ order_number: z.string().nullable(), message: z.string(), created_at: z.string() })),
  }),
});

const RECENT_ERRORS = 10;

/** The numbers of GET /stats (spec 1, 4.3), also shown on the operators' console page. */
export async function systemStats(prisma: PrismaClient): Promise<z.infer<typeof stats>> {
  const dayAgo = new Date(Date.now() - 24 * 3600_000);
  const [byPlatform, active, pendingInsert, pendingVerify, importedToday, errorCount, recent] = await Promise.all([
    prisma.site.groupBy({ by: ["platform"], _count: { _all: true } }),
    prisma.site.count({ where: { is_active: true } }),
    prisma.order.count({ where: { imported: 0 } }),
    prisma.order.count({ where: { imported: 1, verified: 0 } }),
    prisma.order.count({ where: { imported: 1, imported_at: { gte: startOfUtcDay() } } }),
    prisma.syncError.count({ where: { created_at: { gte: dayAgo } } }),
    prisma.syncError.findMany({ orderBy: { id: "desc" }, take: RECENT_ERRORS }),
  ]);
  const perPlatform = (platform: string) => byPlatform.find((row) => row.platform === platform)?._count._all ?? 0;
  return {
    sites: {
      total: perPlatform("storefront_a") + perPlatform("storefront_b"),
      active,
      storefront_a: perPlatform("storefront_a"),
      storefront_b: perPlatform("storefront_b"),
    },
    orders: { pending_insert: pendingInsert, pending_verify: pendingVerify, imported_today: importedToday },
    errors: {
      count: errorCount,
      recent: recent.map((row) => ({ order_number: row.order_number, message: row.message, created_at: formatDateTime(row.created_at)! })),
    },
  };
}

/** GET /stats (spec 1, 4.3). */
export function statsRoutes(api: ApiRouter, ctx: AppContext): void {
  api.route({
    method: "get",
    path: "/stats",
    summary: "Counts of sites, orders and recent failures",
    tag: "stats",
    access: "manage_middleware",
    responses: { 200: { description: "System statistics", schema: stats } },
    handler: () => systemStats(ctx.prisma),
  });
}

import { systemStats } from "@mw/domains/orders";
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

/** GET /stats (spec 1, 4.3). */
export function statsRoutes(api: ApiRouter, ctx: Pick<AppContext, "replica">): void {
  api.route({
    method: "get",
    path: "/stats",
    summary: "Counts of sites, orders and recent failures",
    tag: "stats",
    access: "manage_middleware",
    example: {
      response: {
        sites: { total: 2, active: 2, storefront_a: 1, storefront_b: 1 },
        orders: { pending_insert: 3, pending_verify: 1, imported_today: 57 },
        errors: { count: 1, recent: [{ order_number: "100051", message: "ERP answered HTTP 422: Item 'MUG-OLD' does not exist.", created_at: "2026-11-20 10:15:00" }] },
      },
    },
    responses: { 200: { description: "System statistics", schema: stats } },
    handler: () => systemStats(ctx),
  });
}

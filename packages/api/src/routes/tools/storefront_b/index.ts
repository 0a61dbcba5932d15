import { storefrontBOrder, storefrontBStock } from "@mw/domains/sites";
import type { AppContext } from "../../../context.ts";
import type { ApiRouter } from "../../../http/api-router.ts";
import { storefrontToolRoutes } from "../storefront-tool.ts";

/** Toolshed tool storefront_b (WooCommerce): order lookup, SKU stock lookup, tracking re-push. */
export function registerRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "prisma" | "queues">): void {
  storefrontToolRoutes(api, ctx, {
    platform: "storefront_b",
    findOrder: storefrontBOrder,
    findStock: storefrontBStock,
    examples: {
      order: { id: "1045", number: "1045", status: "processing", date_created: "2026-11-17T10:00:00", items: [{ sku: "TEE-BLK-M", quantity: 2, quantity_shipped: null }] },
      stock: [{ product_id: 230, variant_id: 231, sku: "TEE-BLK-M", manages_stock: true, stock: 40 }],
    },
  });
}

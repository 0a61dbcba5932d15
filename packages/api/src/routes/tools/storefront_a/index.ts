import { storefrontAOrder, storefrontAStock } from "@mw/domains/sites";
import type { AppContext } from "../../../context.ts";
import type { ApiRouter } from "../../../http/api-router.ts";
import { storefrontToolRoutes } from "../storefront-tool.ts";

/** Toolshed tool storefront_a (BigCommerce): order lookup, SKU stock lookup, tracking re-push. */
export function registerRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "prisma" | "queues">): void {
  storefrontToolRoutes(api, ctx, {
    platform: "storefront_a",
    findOrder: storefrontAOrder,
    findStock: storefrontAStock,
    examples: {
      order: { id: "100045", number: "100045", status: "Shipped", date_created: "Tue, 17 Nov 2026 10:00:00 +0000", items: [{ sku: "TEE-BLK-M", quantity: 2, quantity_shipped: 2 }] },
      stock: [{ product_id: 112, variant_id: 87, sku: "TEE-BLK-M", manages_stock: true, stock: 40 }],
    },
  });
}

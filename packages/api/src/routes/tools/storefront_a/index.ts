import { storefrontAClientFor } from "@mw/domains/sites";
import type { StorefrontAProduct } from "@mw/providers/storefront-a";
import type { AppContext } from "../../../context.ts";
import type { ApiRouter } from "../../../http/api-router.ts";
import { storefrontToolRoutes, type StockUnit } from "../storefront-tool.ts";

/** Toolshed tool storefront_a (BigCommerce): order lookup, SKU stock lookup, tracking re-push. */
export function registerRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "prisma" | "queues">): void {
  storefrontToolRoutes(api, ctx, {
    platform: "storefront_a",
    async findOrder(site, config, number) {
      // A BigCommerce order's number is its id.
      if (!/^\d{1,10}$/.test(number)) return null;
      const order = await storefrontAClientFor(site, config).getOrder(Number(number));
      if (!order) return null;
      const lines = (order.consignments?.shipping ?? []).flatMap((consignment) => consignment.line_items);
      return {
        id: String(order.id),
        number: String(order.id),
        status: order.status ?? String(order.status_id),
        date_created: order.date_created ?? null,
        items: lines.map((line) => ({ sku: line.sku, quantity: line.quantity, quantity_shipped: line.quantity_shipped })),
      };
    },
    async findStock(site, config, sku) {
      return (await storefrontAClientFor(site, config).productsWithSku(sku)).flatMap((product) => units(product, sku.toLowerCase()));
    },
    examples: {
      order: { id: "100045", number: "100045", status: "Shipped", date_created: "Tue, 17 Nov 2026 10:00:00 +0000", items: [{ sku: "TEE-BLK-M", quantity: 2, quantity_shipped: 2 }] },
      stock: [{ product_id: 112, variant_id: 87, sku: "TEE-BLK-M", manages_stock: true, stock: 40 }],
    },
  });
}

/**
 * Where BigCommerce counts the SKU's stock: on the variant when the product
 * tracks inventory per variant, else on the product (a product without
 * options carries its SKU on its base variant too, which is not counted apart).
 */
function units(product: StorefrontAProduct, sku: string): StockUnit[] {
  const variants = (product.variants ?? []).filter((variant) => variant.sku.toLowerCase() === sku);
  if (product.inventory_tracking === "variant") {
    return variants.map((variant) => ({ product_id: product.id, variant_id: variant.id, sku: variant.sku, manages_stock: true, stock: variant.inventory_level }));
  }
  if (product.sku.toLowerCase() !== sku && variants.length === 0) return [];
  const tracked = product.inventory_tracking === "product";
  return [{ product_id: product.id, variant_id: null, sku: product.sku.toLowerCase() === sku ? product.sku : variants[0]!.sku, manages_stock: tracked, stock: tracked ? product.inventory_level : null }];
}

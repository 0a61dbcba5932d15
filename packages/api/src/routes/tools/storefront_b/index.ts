import { storefrontBClientFor } from "@mw/domains/sites";
import type { AppContext } from "../../../context.ts";
import type { ApiRouter } from "../../../http/api-router.ts";
import { storefrontToolRoutes } from "../storefront-tool.ts";

/** Toolshed tool storefront_b (WooCommerce): order lookup, SKU stock lookup, tracking re-push. */
export function registerRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "prisma" | "queues">): void {
  storefrontToolRoutes(api, ctx, {
    platform: "storefront_b",
    async findOrder(site, config, number) {
      const order = await storefrontBClientFor(site, config).findOrder(number);
      return (
        order && {
          id: String(order.id),
          number: order.number,
          status: order.status,
          date_created: order.date_created ?? null,
          items: order.line_items.map((line) => ({ sku: line.sku ?? null, quantity: line.quantity, quantity_shipped: null })),
        }
      );
    },
    async findStock(site, config, sku) {
      const client = storefrontBClientFor(site, config);
      const found = (await client.productsWithSku(sku)).filter((product) => product.sku.toLowerCase() === sku.toLowerCase());
      // A variation with manage_stock "parent" shows its product's stock.
      const parentIds = [...new Set(found.filter((product) => product.manage_stock === "parent" && product.parent_id).map((product) => product.parent_id!))];
      const parents = new Map((parentIds.length ? await client.listProducts({ ids: parentIds }) : []).map((parent) => [parent.id, parent]));
      return found.map((product) => {
        const holder = product.manage_stock === "parent" ? parents.get(product.parent_id ?? 0) : product;
        const manages = holder?.manage_stock === true;
        const variation = Boolean(product.parent_id);
        return { product_id: variation ? product.parent_id! : product.id, variant_id: variation ? product.id : null, sku: product.sku, manages_stock: manages, stock: manages ? (holder!.stock_quantity ?? 0) : null };
      });
    },
    examples: {
      order: { id: "1045", number: "1045", status: "processing", date_created: "2026-11-17T10:00:00", items: [{ sku: "TEE-BLK-M", quantity: 2, quantity_shipped: null }] },
      stock: [{ product_id: 230, variant_id: 231, sku: "TEE-BLK-M", manages_stock: true, stock: 40 }],
    },
  });
}

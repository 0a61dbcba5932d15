import type { Site } from "@mw/platform/prisma";
import type { StorefrontAProduct } from "@mw/providers/storefront-a";
import { storefrontAClientFor, storefrontBClientFor } from "./connection.ts";

type ClientConfig = Parameters<typeof storefrontAClientFor>[1] & Parameters<typeof storefrontBClientFor>[1];

/** An order as the storefront has it (the toolshed's order lookup). */
interface StorefrontOrder {
  id: string;
  number: string;
  status: string;
  date_created: string | null;
  /** quantity_shipped is null where the platform does not count it (storefront_b). */
  items: { sku: string | null; quantity: number; quantity_shipped: number | null }[];
}

/** What carries stock under a SKU on the storefront: a product, or a variant / variation of `product_id` (variant_id null for a product). */
interface StockUnit {
  product_id: number;
  variant_id: number | null;
  sku: string;
  manages_stock: boolean;
  stock: number | null;
}

/** The storefront_a (BigCommerce) order numbered `number`; null when it has none. */
export async function storefrontAOrder(site: Site, config: ClientConfig, number: string): Promise<StorefrontOrder | null> {
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
}

/** Everything on the storefront_a store carrying `sku` (compared without case). */
export async function storefrontAStock(site: Site, config: ClientConfig, sku: string): Promise<StockUnit[]> {
  return (await storefrontAClientFor(site, config).productsWithSku(sku)).flatMap((product) => units(product, sku.toLowerCase()));
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

/** The storefront_b (WooCommerce) order numbered `number`; null when it has none. */
export async function storefrontBOrder(site: Site, config: ClientConfig, number: string): Promise<StorefrontOrder | null> {
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
}

/** Everything on the storefront_b store carrying `sku` (compared without case). */
export async function storefrontBStock(site: Site, config: ClientConfig, sku: string): Promise<StockUnit[]> {
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
}

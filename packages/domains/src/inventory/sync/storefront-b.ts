import { chunks, groupBy } from "@mw/platform/core";
import { type StorefrontBClient, MAX_BATCH_ITEMS, type StorefrontBProduct } from "@mw/providers/storefront-b";
import type { Catalogue, InventoryStorefront, PushResult, StockChange, StockUnit } from "./storefront.ts";

/** A product (parent 0) or a variation of `parent`. */
type RefB = { id: number; parent: number };

/**
 * storefront_b (WooCommerce): products, and the variations of variable
 * products, that manage their own stock (`manage_stock` true; a variation
 * with `"parent"` is covered by its parent). Stock is set through the batch
 * endpoints, 100 items per request; WooCommerce answers each item on its own.
 */
export class StorefrontBInventory implements InventoryStorefront<RefB> {
  constructor(private readonly client: StorefrontBClient) {}

  async catalogue(productIds?: string[]): Promise<Catalogue<RefB>> {
    const products = await this.client.listProducts(productIds ? { ids: productIds.map(Number).filter(Number.isInteger) } : {});
    const units: StockUnit<RefB>[] = [];
    const skus = new Set<string>();
    const add = (product: StorefrontBProduct, parent: number) => {
      if (product.sku) skus.add(product.sku.toLowerCase());
      if (managed(product)) units.push(unit(product, parent));
    };
    for (const product of products) {
      add(product, 0);
      if (product.type !== "variable" || !product.variations?.length) continue;
      for (const variation of await this.client.listVariations(product.id)) add(variation, product.id);
    }
    return { units, skus };
  }

  async push(changes: StockChange<RefB>[], written: (result: PushResult<RefB>) => Promise<void>): Promise<void> {
    for (const [parent, group] of groupBy(changes, (change) => change.unit.ref.parent)) {
      for (const batch of chunks(group, MAX_BATCH_ITEMS)) {
        const updates = batch.map((change) => ({ id: change.unit.ref.id, stock_quantity: change.quantity }));
        const answers = parent === 0 ? await this.client.updateProducts(updates) : await this.client.updateVariations(parent, updates);
        const refused = new Map(answers.filter((answer) => answer.error).map((answer) => [answer.id, answer.error!]));
        const result: PushResult<RefB> = { pushed: [], failed: [] };
        for (const change of batch) {
          const message = refused.get(change.unit.ref.id);
          if (message) result.failed.push({ change, message: `storefront_b refused stock for ${change.unit.sku}: ${message}` });
          else result.pushed.push(change);
        }
        await written(result);
      }
    }
  }
}

function managed(product: StorefrontBProduct): boolean {
  return product.manage_stock === true && product.sku !== "";
}

function unit(product: StorefrontBProduct, parent: number): StockUnit<RefB> {
  return { sku: product.sku, current: product.stock_quantity ?? 0, ref: { id: product.id, parent } };
}

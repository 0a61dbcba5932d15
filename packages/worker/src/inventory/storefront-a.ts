import { chunks, type StorefrontAClient } from "@mw/shared";
import { MAX_ADJUSTMENT_ITEMS, type StorefrontAProduct } from "@mw/shared/providers/storefront-a/types";
import { isRefusal } from "../refusals.ts";
import type { Catalogue, InventoryTarget, PushResult, StockChange, StockUnit } from "./target.ts";

/** Products tracked per product are set by product id, variants by variant id (BigCommerce refuses the other way round). */
type RefA = { product_id: number } | { variant_id: number };

/** BigCommerce's default location: single-location stores keep all their stock there. */
const DEFAULT_LOCATION = 1;
const REASON = "Stock levels from the ERP";

/**
 * storefront_a (BigCommerce): the v3 catalogue with variants, and absolute
 * inventory adjustments of up to 2000 items per request at the default
 * location. A request BigCommerce refuses (422 names one bad item and applies
 * none) is split in halves until the refused items stand alone.
 */
export class StorefrontAInventory implements InventoryTarget<RefA> {
  constructor(private readonly client: StorefrontAClient) {}

  async catalogue(productIds?: string[]): Promise<Catalogue<RefA>> {
    const products = await this.client.listProducts(productIds ? { ids: productIds.map(Number).filter(Number.isInteger) } : {});
    const skus = products.flatMap((product) => [product.sku, ...(product.variants ?? []).map((variant) => variant.sku)]);
    return { units: products.flatMap(unitsOf), skus: new Set(skus.filter(Boolean).map((sku) => sku.toLowerCase())) };
  }

  async push(changes: StockChange<RefA>[], progress: (done: number) => Promise<void>): Promise<PushResult<RefA>> {
    const result: PushResult<RefA> = { pushed: [], failed: [] };
    for (const batch of chunks(changes, MAX_ADJUSTMENT_ITEMS)) {
      await this.send(batch, result);
      await progress(result.pushed.length + result.failed.length);
    }
    return result;
  }

  private async send(batch: StockChange<RefA>[], result: PushResult<RefA>): Promise<void> {
    try {
      await this.client.adjustStockAbsolute(batch.map((change) => ({ location_id: DEFAULT_LOCATION, quantity: change.quantity, ...change.unit.ref })), REASON);
      result.pushed.push(...batch);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      if (batch.length === 1) {
        result.failed.push({ change: batch[0]!, message: error.message });
        return;
      }
      const half = Math.ceil(batch.length / 2);
      await this.send(batch.slice(0, half), result);
      await this.send(batch.slice(half), result);
    }
  }
}

function unitsOf(product: StorefrontAProduct): StockUnit<RefA>[] {
  if (product.inventory_tracking === "product") return product.sku ? [{ sku: product.sku, current: product.inventory_level, ref: { product_id: product.id } }] : [];
  if (product.inventory_tracking === "none") return [];
  return (product.variants ?? []).filter((variant) => variant.sku).map((variant) => ({ sku: variant.sku, current: variant.inventory_level, ref: { variant_id: variant.id } }));
}

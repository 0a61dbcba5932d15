import { chunks, type AppError } from "@mw/platform/core";
import { type StorefrontAClient, MAX_ADJUSTMENT_ITEMS, type StorefrontAProduct } from "@mw/providers/storefront-a";
import { isRefusal } from "../../sites/index.ts";
import type { Catalogue, InventoryStorefront, PushResult, StockChange, StockUnit } from "./storefront.ts";

/** Products tracked per product are set by product id, variants by variant id (BigCommerce refuses the other way round). */
type RefA = { product_id: number } | { variant_id: number };

/** BigCommerce's default location: single-location stores keep all their stock there. */
const DEFAULT_LOCATION = 1;
const REASON = "Stock levels from the ERP";

/**
 * storefront_a (BigCommerce): the v3 catalogue with variants, and absolute
 * inventory adjustments of up to 2000 items per request at the default
 * location. A request BigCommerce refuses (422, applying none of it) is split
 * to find the items it refuses (see `isolate`).
 */
export class StorefrontAInventory implements InventoryStorefront<RefA> {
  constructor(private readonly client: StorefrontAClient) {}

  async catalogue(productIds?: string[]): Promise<Catalogue<RefA>> {
    const products = await this.client.listProducts(productIds ? { ids: productIds.map(Number).filter(Number.isInteger) } : {});
    const skus = products.flatMap((product) => [product.sku, ...(product.variants ?? []).map((variant) => variant.sku)]);
    return { units: products.flatMap(unitsOf), skus: new Set(skus.filter(Boolean).map((sku) => sku.toLowerCase())) };
  }

  async push(changes: StockChange<RefA>[], written: (result: PushResult<RefA>) => Promise<void>): Promise<void> {
    for (const batch of chunks(changes, MAX_ADJUSTMENT_ITEMS)) {
      const refusal = await this.adjust(batch, written);
      if (refusal) await this.isolate(batch, refusal, written);
    }
  }

  /** Sets the batch; answers BigCommerce's refusal of it, which applied none of it. */
  private async adjust(batch: StockChange<RefA>[], written: (result: PushResult<RefA>) => Promise<void>): Promise<AppError | null> {
    try {
      await this.client.adjustStockAbsolute(batch.map((change) => ({ location_id: DEFAULT_LOCATION, quantity: change.quantity, ...change.unit.ref })), REASON);
    } catch (error) {
      if (!isRefusal(error)) throw error;
      return error;
    }
    await written({ pushed: batch, failed: [] });
    return null;
  }

  /**
   * Sets what BigCommerce takes of a refused batch: its halves, and the
   * halves of a refused half, until the refused items stand alone. A refusal
   * names the item it is about (`[Item with product_id 12 not found]`), so
   * both halves refused in the same words means the request as such is
   * refused (`Location not found, identities: [1]`), and every item of it is
   * counted refused instead of being sent again in ever smaller requests.
   */
  private async isolate(batch: StockChange<RefA>[], refusal: AppError, written: (result: PushResult<RefA>) => Promise<void>): Promise<void> {
    if (batch.length === 1) return written({ pushed: [], failed: [{ change: batch[0]!, message: refusal.message }] });
    const halves = [batch.slice(0, Math.ceil(batch.length / 2)), batch.slice(Math.ceil(batch.length / 2))];
    const refusals = [await this.adjust(halves[0]!, written), await this.adjust(halves[1]!, written)];
    if (refusals[0] && refusals[0].message === refusals[1]?.message) {
      return written({ pushed: [], failed: batch.map((change) => ({ change, message: refusals[0]!.message })) });
    }
    for (const [i, half] of halves.entries()) if (refusals[i]) await this.isolate(half, refusals[i], written);
  }
}

function unitsOf(product: StorefrontAProduct): StockUnit<RefA>[] {
  if (product.inventory_tracking === "product") return product.sku ? [{ sku: product.sku, current: product.inventory_level, ref: { product_id: product.id } }] : [];
  if (product.inventory_tracking === "none") return [];
  return (product.variants ?? []).filter((variant) => variant.sku).map((variant) => ({ sku: variant.sku, current: variant.inventory_level, ref: { variant_id: variant.id } }));
}

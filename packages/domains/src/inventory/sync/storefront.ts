/** Something on the storefront that carries stock under a SKU: a product, variant or variation. */
export interface StockUnit<Ref = unknown> {
  sku: string;
  /** The stock the storefront shows now. */
  current: number;
  /** How the platform addresses it when its stock is set. */
  ref: Ref;
}

export interface StockChange<Ref = unknown> {
  unit: StockUnit<Ref>;
  /** The ERP's figure (whole units). */
  erpStock: number;
  /** What the storefront is set to. */
  quantity: number;
}

/** What one request to the storefront did. */
export interface PushResult<Ref = unknown> {
  pushed: StockChange<Ref>[];
  failed: { change: StockChange<Ref>; message: string }[];
}

/** The storefront's catalogue as the inventory sync sees it. */
export interface Catalogue<Ref = unknown> {
  /** Items that track stock and have a SKU. */
  units: StockUnit<Ref>[];
  /** Every SKU the catalogue carries, stock-tracked or not (lower case). */
  skus: Set<string>;
}

/** What the inventory sync needs from one storefront platform. */
export interface InventoryStorefront<Ref = unknown> {
  /** `productIds` (storefront product ids) limits the catalogue to those products. */
  catalogue(productIds?: string[]): Promise<Catalogue<Ref>>;
  /**
   * Sets the stock of each change in as few requests as the API allows.
   * `written` hears what each request set and what it refused as soon as it
   * is answered, so what was set is on record even when a later request fails.
   */
  push(changes: StockChange<Ref>[], written: (result: PushResult<Ref>) => Promise<void>): Promise<void>;
}

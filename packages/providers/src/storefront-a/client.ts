import type { Got, Response } from "got";
import { z } from "zod";
import { chunks, isUpstreamNotFound } from "@mw/platform/core";
import { trimEndChars } from "@mw/platform/text";
import type { EgressGuard } from "@mw/platform/egress";
import { createHttpClient, headerMs, jsonOrUndefined, parseUpstream, rateLimitedCall, type RateLimitPolicy, type UpstreamDetail } from "@mw/platform/http";
import {
  catalogProduct,
  catalogVariant,
  MAX_ADJUSTMENT_ITEMS,
  order,
  shipment,
  storeProfile,
  v3Page,
  type AbsoluteAdjustment,
  type ShipmentInput,
  type StorefrontAOrder,
  type StorefrontAProduct,
  type StorefrontAShipment,
  type StorefrontAStore,
} from "./types.ts";

/**
 * storefront_a follows the BigCommerce REST API: v2 for store, orders and
 * shipments, v3 for catalog and inventory, both under one per-store base URL
 * `https://api.bigcommerce.com/stores/<store_hash>`.
 */
const SYSTEM = "storefront_a";
const API_HOST = "https://api.bigcommerce.com";
/** The most v2 lists answer per page. */
const V2_LIMIT = 250;
/** The most v3 catalog lists answer per page. */
const V3_LIMIT = 250;
/** Product ids per `id:in` filter, to keep the URL short. */
const IDS_PER_QUERY = 100;

/** The one site URL that names its store hash: the control-panel host `store-<hash>.mybigcommerce.com`. */
export function storeHashOf(siteUrl: string): string | null {
  let host: string;
  try {
    host = new URL(siteUrl).hostname;
  } catch {
    return null;
  }
  return /^store-([a-z0-9]+)\.mybigcommerce\.com$/i.exec(host)?.[1]?.toLowerCase() ?? null;
}

/**
 * The store's API base: `api_base_url` when set, else derived from a
 * `store-<hash>.mybigcommerce.com` site URL; null when neither names the
 * store (a custom domain). The control panel shows API accounts an "API path"
 * ending in `/v3/`; pasted as it is, that suffix is dropped here because the
 * client adds the version per call.
 */
export function storefrontABaseUrl(site: { site_url: string; api_base_url: string | null }): string | null {
  if (site.api_base_url) return trimEndChars(site.api_base_url, "/").replace(/\/v[23]$/, "");
  const hash = storeHashOf(site.site_url);
  return hash ? `${API_HOST}/stores/${hash}` : null;
}

export interface StorefrontAOptions {
  baseUrl: string;
  /** API account client id (`X-Auth-Client`). */
  clientId: string;
  /** API account access token (`X-Auth-Token`). */
  accessToken: string;
  timeoutMs: number;
  /** The most one call waits out 429 answers (their `X-Rate-Limit-Time-Reset-Ms`). */
  maxRateLimitWaitMs: number;
  /** The base URL may be an entered `api_base_url`: calls go through the egress guard. */
  egress: EgressGuard;
}

/** v2 errors are `[{status, message}]`, gateway and v3 errors `{status, title}`. */
function errorDetail(body: unknown): UpstreamDetail | undefined {
  const first = (Array.isArray(body) ? body[0] : body) as { message?: unknown; title?: unknown } | null | undefined;
  const text = first?.title ?? first?.message;
  return typeof text === "string" && text ? { reason: text } : undefined;
}

type Query = Record<string, string | number>;

/** Each shipping consignment with its products, which saves a `/products` call per order. */
const WITH_LINE_ITEMS: Query = { include: "consignments.line_items", consignment_structure: "object" };
/** The catalogue members the platform reads of a product. */
const PRODUCT_QUERY: Query = { include: "variants", include_fields: "sku,inventory_tracking,inventory_level", limit: V3_LIMIT };

export class StorefrontAClient {
  private readonly http: Got;
  private readonly rateLimit: RateLimitPolicy;

  constructor(options: StorefrontAOptions) {
    this.http = createHttpClient({
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      egress: options.egress,
      headers: { "x-auth-token": options.accessToken, "x-auth-client": options.clientId, accept: "application/json" },
    });
    this.rateLimit = { maxWaitMs: options.maxRateLimitWaitMs, waitMs: (response) => headerMs(response.headers["x-rate-limit-time-reset-ms"]) };
  }

  /** The store profile; the cheapest call that proves the base URL and the token. */
  async getStore(): Promise<StorefrontAStore> {
    return this.read("v2/store", storeProfile, await this.call(() => this.http.get("v2/store")));
  }

  /**
   * Every order in one status (v2 filters on one `status_id` per call), oldest
   * first. `lineItems` includes each shipping consignment's products;
   * `modifiedSince` keeps orders changed since then.
   */
  async listOrders(filter: { statusId: number; channelId?: number; modifiedSince?: Date; lineItems: boolean }): Promise<StorefrontAOrder[]> {
    const query: Query = { status_id: filter.statusId, sort: "id:asc" };
    if (filter.channelId !== undefined) query.channel_id = filter.channelId;
    if (filter.modifiedSince) query.min_date_modified = filter.modifiedSince.toISOString();
    if (filter.lineItems) Object.assign(query, WITH_LINE_ITEMS);
    return this.v2Pages("v2/orders", query, order);
  }

  /** One order with its consignments' products; null when the store has no order with that id. */
  async getOrder(orderId: number): Promise<StorefrontAOrder | null> {
    const path = `v2/orders/${orderId}`;
    try {
      return this.read(path, order, await this.call(() => this.http.get(path, { searchParams: WITH_LINE_ITEMS })));
    } catch (error) {
      if (isUpstreamNotFound(error)) return null;
      throw error;
    }
  }

  async listShipments(orderId: number): Promise<StorefrontAShipment[]> {
    return this.v2Pages(`v2/orders/${orderId}/shipments`, {}, shipment);
  }

  /** BigCommerce moves the order to Partially Shipped (3) or Shipped (2) itself. */
  async createShipment(orderId: number, input: ShipmentInput): Promise<StorefrontAShipment> {
    const path = `v2/orders/${orderId}/shipments`;
    return this.read(path, shipment, await this.call(() => this.http.post(path, { json: input })));
  }

  async setOrderStatus(orderId: number, statusId: number): Promise<void> {
    await this.call(() => this.http.put(`v2/orders/${orderId}`, { json: { status_id: statusId } }));
  }

  /** Catalogue products with their variants; `ids` limits the list to those products. */
  async listProducts(filter: { ids?: number[] } = {}): Promise<StorefrontAProduct[]> {
    const query = PRODUCT_QUERY;
    if (!filter.ids) return this.v3Pages("v3/catalog/products", query, catalogProduct);
    const products: StorefrontAProduct[] = [];
    for (const ids of chunks(filter.ids, IDS_PER_QUERY)) products.push(...(await this.v3Pages("v3/catalog/products", { ...query, "id:in": ids.join(",") }, catalogProduct)));
    return products;
  }

  /**
   * The products that carry `sku`: as their own SKU, else through a variant
   * (BigCommerce filters product and variant SKUs on separate endpoints), with
   * their variants.
   */
  async productsWithSku(sku: string): Promise<StorefrontAProduct[]> {
    const products = await this.v3Pages("v3/catalog/products", { ...PRODUCT_QUERY, sku }, catalogProduct);
    if (products.length) return products;
    const variants = await this.v3Pages("v3/catalog/variants", { sku, limit: V3_LIMIT }, catalogVariant);
    return variants.length ? this.listProducts({ ids: [...new Set(variants.map((variant) => variant.product_id))] }) : [];
  }

  /** Sets stock levels outright at their locations; answers BigCommerce's transaction id. */
  async adjustStockAbsolute(items: AbsoluteAdjustment[], reason: string): Promise<string> {
    if (items.length > MAX_ADJUSTMENT_ITEMS) throw new RangeError(`at most ${MAX_ADJUSTMENT_ITEMS} items per absolute adjustment`);
    const path = "v3/inventory/adjustments/absolute";
    const answer = await this.call(() => this.http.put(path, { json: { reason, items } }));
    return this.read(path, z.looseObject({ transaction_id: z.string() }), answer).transaction_id;
  }

  /** v2 pages answer 204 No Content once past the end; a short page is the last one too. */
  private async v2Pages<T extends z.ZodType>(path: string, query: Query, schema: T): Promise<z.output<T>[]> {
    const rows: z.output<T>[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await this.call(() => this.http.get(path, { searchParams: { ...query, page, limit: V2_LIMIT } }));
      if (answer.statusCode === 204) break;
      const found = this.read(path, z.array(schema), answer);
      rows.push(...found);
      if (found.length < V2_LIMIT) break;
    }
    return rows;
  }

  /** v3 lists say how many pages there are in `meta.pagination`. */
  private async v3Pages<T extends z.ZodType>(path: string, query: Query, schema: T): Promise<z.output<T>[]> {
    const rows: z.output<T>[] = [];
    for (let page = 1, pages = 1; page <= pages; page += 1) {
      const answer = this.read(path, v3Page(schema), await this.call(() => this.http.get(path, { searchParams: { ...query, page } })));
      rows.push(...answer.data);
      pages = answer.meta.pagination.total_pages;
    }
    return rows;
  }

  private call(request: () => Promise<Response<string>>): Promise<Response<string>> {
    return rateLimitedCall(SYSTEM, request, this.rateLimit, errorDetail);
  }

  private read<T extends z.ZodType>(path: string, schema: T, answer: Response<string>): z.output<T> {
    return parseUpstream(SYSTEM, path, schema, jsonOrUndefined(answer.body));
  }
}

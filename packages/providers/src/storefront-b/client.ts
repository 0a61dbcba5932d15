import type { Got, Response } from "got";
import { z } from "zod";
import { chunks, isUpstreamNotFound } from "@mw/platform/core";
import { trimEndChars } from "@mw/platform/text";
import type { EgressGuard } from "@mw/platform/egress";
import { createHttpClient, jsonOrUndefined, parseUpstream, rateLimitedCall, type RateLimitPolicy, retryAfterMs, type UpstreamDetail } from "@mw/platform/http";
import {
  batchAnswer,
  MAX_BATCH_ITEMS,
  order,
  orderNote,
  product,
  systemStatus,
  trackingItem,
  type BatchResult,
  type OrderNote,
  type StorefrontBOrder,
  type StorefrontBProduct,
  type StorefrontBSystemStatus,
  type TrackingInput,
  type TrackingItem,
} from "./types.ts";

/**
 * storefront_b follows the WooCommerce REST API (`wc/v3`) of a WordPress
 * site, reached under `<site_url>/wp-json`; other namespaces of the same site
 * (the Shipment Tracking extension's `wc-shipment-tracking/v3`) share that base.
 */
const SYSTEM = "storefront_b";
/** The most a WooCommerce list answers per page. */
const PER_PAGE = 100;
const TRACKINGS = (orderId: number) => `wc-shipment-tracking/v3/orders/${orderId}/shipment-trackings`;

export interface StorefrontBOptions {
  siteUrl: string;
  consumerKey: string;
  consumerSecret: string;
  timeoutMs: number;
  /** The most one call waits out 429 answers (their `Retry-After`). */
  maxRateLimitWaitMs: number;
  /** The site URL was entered: calls go through the egress guard. */
  egress: EgressGuard;
}

/** WordPress REST errors are `{code, message, data: {status}}`. */
function errorDetail(body: unknown): UpstreamDetail | undefined {
  const { code, message } = (body ?? {}) as { code?: unknown; message?: unknown };
  if (typeof message !== "string") return undefined;
  const reason = typeof code === "string" ? `${message} (${code})` : message;
  return reason ? { reason } : undefined;
}

type Query = Record<string, string | number>;

export class StorefrontBClient {
  private readonly http: Got;
  private readonly rateLimit: RateLimitPolicy;

  constructor(options: StorefrontBOptions) {
    // WooCommerce honours HTTP Basic only over HTTPS; a plain-http site answers as if no key was sent.
    const basic = Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString("base64");
    this.http = createHttpClient({
      baseUrl: `${trimEndChars(options.siteUrl, "/")}/wp-json`,
      timeoutMs: options.timeoutMs,
      egress: options.egress,
      headers: { authorization: `Basic ${basic}`, accept: "application/json" },
    });
    this.rateLimit = { maxWaitMs: options.maxRateLimitWaitMs, waitMs: (response) => retryAfterMs(response.headers["retry-after"]) };
  }

  /** The system status report; the cheapest call that needs valid keys with read permission. */
  async getSystemStatus(): Promise<StorefrontBSystemStatus> {
    return this.get("wc/v3/system_status", {}, systemStatus);
  }

  /** Every order in these statuses (WooCommerce takes a comma list), oldest first; `modifiedAfter` keeps orders changed since then. */
  async listOrders(statuses: string[], filter: { modifiedAfter?: Date } = {}): Promise<StorefrontBOrder[]> {
    const query: Query = { status: statuses.join(","), orderby: "id", order: "asc" };
    // WooCommerce reads the date in the site's time zone unless told it is GMT.
    if (filter.modifiedAfter) Object.assign(query, { modified_after: filter.modifiedAfter.toISOString().slice(0, 19), dates_are_gmt: "true" });
    return this.pages("wc/v3/orders", query, order);
  }

  /**
   * The order numbered `number`, null when there is none. Its number is its
   * id unless an order-number plugin sets it apart; such numbers are found
   * through the order search, which those plugins extend.
   */
  async findOrder(number: string): Promise<StorefrontBOrder | null> {
    if (/^\d{1,10}$/.test(number)) {
      const byId = await this.get(`wc/v3/orders/${number}`, {}, order).catch((error: unknown) => {
        if (isUpstreamNotFound(error)) return null;
        throw error;
      });
      if (byId?.number === number) return byId;
    }
    const found = await this.get("wc/v3/orders", { search: number, per_page: PER_PAGE }, z.array(order));
    return found.find((candidate) => candidate.number === number) ?? null;
  }

  async listNotes(orderId: number): Promise<OrderNote[]> {
    return this.get(`wc/v3/orders/${orderId}/notes`, {}, z.array(orderNote));
  }

  /** A customer note is shown to the customer and e-mailed to them by WooCommerce; a private note is not. */
  async createNote(orderId: number, note: { note: string; customer_note: boolean }): Promise<OrderNote> {
    return this.post(`wc/v3/orders/${orderId}/notes`, note, orderNote);
  }

  /** Up to 100 order updates in one request (`/orders/batch`); each order's hooks fire as for a single update. */
  async updateOrders(updates: { id: number; status: string }[]): Promise<BatchResult[]> {
    return this.batch("wc/v3/orders/batch", updates);
  }

  async createTracking(orderId: number, input: TrackingInput): Promise<TrackingItem> {
    return this.post(TRACKINGS(orderId), input, trackingItem);
  }

  /** Catalogue products; `ids` limits the list to those products. */
  async listProducts(filter: { ids?: number[] } = {}): Promise<StorefrontBProduct[]> {
    const query: Query = { _fields: "id,sku,type,manage_stock,stock_quantity,variations", orderby: "id", order: "asc" };
    if (!filter.ids) return this.pages("wc/v3/products", query, product);
    const products: StorefrontBProduct[] = [];
    for (const ids of chunks(filter.ids, PER_PAGE)) products.push(...(await this.pages("wc/v3/products", { ...query, include: ids.join(",") }, product)));
    return products;
  }

  /** Products and variations whose SKU is `sku` (with a `sku` filter WooCommerce lists variations too). */
  async productsWithSku(sku: string): Promise<StorefrontBProduct[]> {
    return this.pages("wc/v3/products", { sku, _fields: "id,sku,type,parent_id,manage_stock,stock_quantity" }, product);
  }

  async listVariations(productId: number): Promise<StorefrontBProduct[]> {
    return this.pages(`wc/v3/products/${productId}/variations`, { _fields: "id,sku,type,manage_stock,stock_quantity" }, product);
  }

  async updateProducts(updates: { id: number; stock_quantity: number }[]): Promise<BatchResult[]> {
    return this.batch("wc/v3/products/batch", updates);
  }

  async updateVariations(productId: number, updates: { id: number; stock_quantity: number }[]): Promise<BatchResult[]> {
    return this.batch(`wc/v3/products/${productId}/variations/batch`, updates);
  }

  private async batch(path: string, updates: { id: number }[]): Promise<BatchResult[]> {
    if (updates.length > MAX_BATCH_ITEMS) throw new RangeError(`at most ${MAX_BATCH_ITEMS} items per batch request`);
    const answer = await this.post(path, { update: updates }, batchAnswer);
    return (answer.update ?? []).map((item) => (item.error ? { id: item.id, error: `${item.error.message} (${item.error.code})` } : { id: item.id }));
  }

  /** WooCommerce says how many pages there are in `X-WP-TotalPages`. */
  private async pages<T extends z.ZodType>(path: string, query: Query, schema: T): Promise<z.output<T>[]> {
    const rows: z.output<T>[] = [];
    for (let page = 1, pages = 1; page <= pages; page += 1) {
      const answer = await this.call(() => this.http.get(path, { searchParams: { ...query, per_page: PER_PAGE, page } }));
      rows.push(...this.read(path, z.array(schema), answer));
      pages = Number(answer.headers["x-wp-totalpages"] ?? 1) || 1;
    }
    return rows;
  }

  private async get<T extends z.ZodType>(path: string, query: Query, schema: T): Promise<z.output<T>> {
    return this.read(path, schema, await this.call(() => this.http.get(path, { searchParams: query })));
  }

  private async post<T extends z.ZodType>(path: string, body: object, schema: T): Promise<z.output<T>> {
    return this.read(path, schema, await this.call(() => this.http.post(path, { json: body })));
  }

  private call(request: () => Promise<Response<string>>): Promise<Response<string>> {
    return rateLimitedCall(SYSTEM, request, this.rateLimit, errorDetail);
  }

  private read<T extends z.ZodType>(path: string, schema: T, answer: Response<string>): z.output<T> {
    return parseUpstream(SYSTEM, path, schema, jsonOrUndefined(answer.body));
  }
}

import { FakeServer, parseObject, type FakeAnswer, type FakeReply, type FakeRequest } from "./fake-server.ts";
import { FakeStoreData, STATUS_NAMES, type FakeOrderA, type FakeOrderProduct, type FakeProductA } from "./storefront-a-store.ts";

/**
 * A BigCommerce stand-in for storefront_a: stores under `/stores/<hash>`,
 * authenticated by `X-Auth-Token` alone (the real API ignores
 * `X-Auth-Client`), JSON bodies shaped like the real ones. v2 orders (one
 * `status_id` per list, `page`/`limit`, 204 past the last page, consignments
 * with line items), shipments, order status, v3 catalog with `meta.pagination`
 * and absolute inventory adjustments (at most 2000 items). A store can be
 * throttled: 429 with `X-Rate-Limit-Time-Reset-Ms`, as the API gateway does.
 */

export interface FakeStore extends FakeStoreData {
  hash: string;
  accessToken: string;
  clientId: string;
  /** What `GET /v2/store` answers; edit it to change the answer. */
  profile: Record<string, unknown>;
}

const STATUS_DOCS = "https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes";
const V2_MAX_LIMIT = 250;
const V3_MAX_LIMIT = 250;
const MAX_ADJUSTMENT_ITEMS = 2000;
/** A few of BigCommerce's tracking-carrier values (its list has hundreds); anything else is refused. */
const TRACKING_CARRIERS = new Set(["ups", "fedex", "usps", "dhl", "ontrac", "canada-post", "australia-post", "royal-mail", "dhl-global-mail", "lasership"]);
/** Quota per window of a Standard plan store. */
const QUOTA = 150;

/** The body api.bigcommerce.com answers a missing or wrong token with. */
const UNAUTHORIZED = { status: 401, title: "No valid credentials were found in this request", type: STATUS_DOCS, errors: {} };

function storeProfile(hash: string, name: string): Record<string, unknown> {
  const domain = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.example`;
  return {
    id: hash,
    account_uuid: "8d4d492f-17a1-4d95-b396-e1c5720815a5",
    domain,
    secure_url: `https://${domain}`,
    control_panel_base_url: `https://store-${hash}.mybigcommerce.com`,
    status: "live",
    name,
    first_name: "Jane",
    last_name: "Doe",
    address: "11305 4 Points Dr, Austin, TX 78726",
    country: "United States",
    country_code: "US",
    phone: "",
    admin_email: "jane@example.com",
    order_email: "orders@example.com",
    timezone: { name: "America/Chicago", raw_offset: -21600, dst_offset: -18000, dst_correction: true, date_format: { display: "M jS Y", export: "M jS Y", extended_display: "M jS Y @ g:i A" } },
    language: "en",
    currency: "USD",
    currency_symbol: "$",
    decimal_separator: ".",
    thousands_separator: ",",
    decimal_places: 2,
    currency_symbol_location: "left",
    weight_units: "LBS",
    dimension_units: "Inches",
    plan_name: "Standard",
    plan_level: "Standard",
    plan_is_trial: false,
    industry: "Technology",
    is_price_entered_with_tax: false,
    store_id: 1001234,
    default_site_id: 1000,
    default_channel_id: 1,
    features: { stencil_enabled: true, sitewidehttps_enabled: true, facebook_catalog_id: "", checkout_type: "optimized", wishlists_enabled: true },
  };
}

export class FakeStorefrontA extends FakeServer {
  private readonly stores = new Map<string, FakeStore>();

  constructor() {
    super({ routePrefix: "/stores/:hash" });
    const store = (params: Record<string, string>) => this.stores.get(params.hash!)!;
    this.route("GET", "/v2/store", (_request, params) => this.json(200, store(params).profile));
    this.route("GET", "/v2/orders", (request, params) => this.listOrders(store(params), request));
    this.route("GET", "/v2/orders/:id", (request, params) => this.withOrder(store(params), params, (order) => this.json(200, orderJson(this.base(params), order, request.query))));
    this.route("PUT", "/v2/orders/:id", (request, params) => this.withOrder(store(params), params, (order) => this.updateOrder(store(params), order, request.body, params)));
    this.route("GET", "/v2/orders/:id/products", (request, params) => this.withOrder(store(params), params, (order) => this.v2Page(request, order.products)));
    this.route("GET", "/v2/orders/:id/shipping_addresses", (request, params) =>
      this.withOrder(store(params), params, (order) => this.v2Page(request, order.addresses.map((id) => ({ id, order_id: order.id, email: order.email, country_iso2: "US" })))),
    );
    this.route("GET", "/v2/orders/:id/shipments", (request, params) => this.withOrder(store(params), params, (order) => this.v2Page(request, order.shipments)));
    this.route("POST", "/v2/orders/:id/shipments", (request, params) => this.withOrder(store(params), params, (order) => this.createShipment(store(params), order, request.body)));
    this.route("GET", "/v3/catalog/products", (request, params) => this.listProducts(store(params), request));
    this.route("GET", "/v3/catalog/variants", (request, params) => this.listVariants(store(params), request));
    this.route("PUT", "/v3/inventory/adjustments/absolute", (request, params) => this.adjust(store(params), request.body));
  }

  addStore(options: { hash: string; accessToken: string; clientId: string; name: string }): FakeStore {
    const store = Object.assign(new FakeStoreData(), {
      hash: options.hash,
      accessToken: options.accessToken,
      clientId: options.clientId,
      profile: storeProfile(options.hash, options.name),
    });
    this.stores.set(store.hash, store);
    return store;
  }

  /** What a site's `api_base_url` is for a store of this fake. */
  baseUrl(hash: string): string {
    return `${this.url}/stores/${hash}`;
  }

  protected override answer(request: FakeRequest): FakeAnswer | Promise<FakeAnswer> {
    const hash = /^\/stores\/([^/]+)\//.exec(request.path)?.[1];
    const store = hash === undefined ? undefined : this.stores.get(hash);
    // A token is only valid for its own store, so an unknown hash is as unauthorised as a wrong token.
    if (!store || request.headers["x-auth-token"] !== store.accessToken) return this.json(401, UNAUTHORIZED);
    if (store.throttle.times > 0) {
      store.throttle.times -= 1;
      return this.json(429, { status: 429, title: "Too many requests", type: STATUS_DOCS, errors: {} }, {
        "x-rate-limit-time-reset-ms": String(store.throttle.resetMs),
        "x-rate-limit-time-window-ms": "30000",
        "x-rate-limit-requests-left": "0",
        "x-rate-limit-requests-quota": String(QUOTA),
      });
    }
    return super.answer(request);
  }

  protected override notFound(): FakeAnswer {
    return this.json(404, [{ status: 404, message: "The requested resource was not found." }]);
  }

  private base(params: Record<string, string>): string {
    return this.baseUrl(params.hash!);
  }

  private v2Error(status: number, message: string): FakeReply {
    return this.json(status, [{ status, message }]);
  }

  private v3Error(status: number, title: string): FakeReply {
    return this.json(status, { status, title, type: STATUS_DOCS, errors: {} }, { "content-type": "application/problem+json" });
  }

  private withOrder(store: FakeStore, params: Record<string, string>, then: (order: FakeOrderA) => FakeAnswer): FakeAnswer {
    const order = store.orders.get(Number(params.id));
    return order ? then(order) : this.notFound();
  }

  /** v2 paging: `limit` (default 50, at most 250) per `page`; a page past the end is 204 No Content. */
  private v2Page<T>(request: FakeRequest, rows: T[], render: (row: T) => unknown = (row) => row): FakeReply {
    const limit = Math.min(Number(request.query.get("limit") ?? 50) || 50, V2_MAX_LIMIT);
    const page = Math.max(1, Number(request.query.get("page") ?? 1) || 1);
    const slice = rows.slice((page - 1) * limit, page * limit);
    return slice.length ? this.json(200, slice.map(render)) : { status: 204 };
  }

  private listOrders(store: FakeStore, request: FakeRequest): FakeReply {
    const status = request.query.get("status_id");
    const channel = request.query.get("channel_id");
    const since = request.query.get("min_date_modified");
    if (since !== null && Number.isNaN(Date.parse(since))) return this.v2Error(400, "The field 'min_date_modified' is invalid.");
    const orders = [...store.orders.values()]
      .filter((order) => (status === null || order.status_id === Number(status)) && (channel === null || order.channel_id === Number(channel)))
      .filter((order) => since === null || order.date_modified.getTime() >= Date.parse(since))
      .sort((a, b) => a.id - b.id);
    const base = this.baseUrl(store.hash);
    return this.v2Page(request, orders, (order) => orderJson(base, order, request.query));
  }

  private createShipment(store: FakeStore, order: FakeOrderA, body: string): FakeReply {
    const input = parseObject(body);
    if (!input) return this.v2Error(400, "The request body is not valid JSON.");
    const addressId = input.order_address_id;
    if (typeof addressId !== "number" || !order.addresses.includes(addressId)) return this.v2Error(400, "The field 'order_address_id' is invalid.");
    if (typeof input.tracking_number !== "string" || input.tracking_number.length > 50) return this.v2Error(400, "The field 'tracking_number' is invalid.");
    const carrier = input.tracking_carrier ?? "";
    if (typeof carrier !== "string" || (carrier !== "" && !TRACKING_CARRIERS.has(carrier))) return this.v2Error(400, "The field 'tracking_carrier' is invalid.");
    const provider = input.shipping_provider === undefined ? "custom" : input.shipping_provider;
    if (typeof provider !== "string") return this.v2Error(400, "The field 'shipping_provider' is invalid.");
    const items = input.items;
    if (!Array.isArray(items) || items.length === 0) return this.v2Error(400, "The field 'items' is required.");
    const shipped: { product: FakeOrderProduct; quantity: number }[] = [];
    for (const item of items as Record<string, unknown>[]) {
      const product = order.products.find((p) => p.id === item.order_product_id);
      if (!product || product.order_address_id !== addressId) return this.v2Error(400, `The order product ${String(item.order_product_id)} does not belong to address ${addressId}.`);
      const quantity = item.quantity;
      if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1) return this.v2Error(400, "The field 'quantity' is invalid.");
      if (quantity > product.quantity - product.quantity_shipped) return this.v2Error(400, `The quantity of order product ${product.id} exceeds the quantity left to ship.`);
      shipped.push({ product, quantity });
    }
    const shipment = store.ship(order, {
      order_address_id: addressId,
      tracking_number: input.tracking_number,
      shipping_provider: provider,
      tracking_carrier: carrier,
      items: shipped.map(({ product, quantity }) => ({ order_product_id: product.id, product_id: product.product_id, quantity })),
    });
    return this.json(201, shipment);
  }

  private updateOrder(store: FakeStore, order: FakeOrderA, body: string, params: Record<string, string>): FakeReply {
    const input = parseObject(body);
    if (!input) return this.v2Error(400, "The request body is not valid JSON.");
    if (input.status_id !== undefined) {
      if (typeof input.status_id !== "number" || !(input.status_id in STATUS_NAMES)) return this.v2Error(400, "The field 'status_id' is invalid.");
      store.setStatus(order, input.status_id);
    }
    return this.json(200, orderJson(this.base(params), order, new URLSearchParams()));
  }

  /** v3 paging with `meta.pagination`; `include=variants`, `id:in`, `sku` (the product's own) and `include_fields` as the real endpoint. */
  private listProducts(store: FakeStore, request: FakeRequest): FakeReply {
    const ids = request.query.get("id:in")?.split(",").map(Number);
    const sku = request.query.get("sku");
    const all = store.products.filter((p) => (!ids || ids.includes(p.id)) && (sku === null || p.sku === sku));
    const withVariants = (request.query.get("include") ?? "").split(",").includes("variants");
    const fields = request.query.get("include_fields")?.split(",");
    return this.v3Page(request, all, (product) => productJson(product, withVariants, fields));
  }

  /** Every variant of the catalogue (a product without options has one, its base variant); `sku` filters on the variant's own. */
  private listVariants(store: FakeStore, request: FakeRequest): FakeReply {
    const sku = request.query.get("sku");
    return this.v3Page(request, store.products.flatMap((p) => p.variants).filter((v) => sku === null || v.sku === sku), (v) => ({ ...v }));
  }

  private v3Page<T>(request: FakeRequest, all: T[], render: (row: T) => unknown): FakeReply {
    const limit = Math.min(Number(request.query.get("limit") ?? 50) || 50, V3_MAX_LIMIT);
    const page = Math.max(1, Number(request.query.get("page") ?? 1) || 1);
    const slice = all.slice((page - 1) * limit, page * limit);
    const totalPages = Math.max(1, Math.ceil(all.length / limit));
    return this.json(200, {
      data: slice.map(render),
      meta: { pagination: { total: all.length, count: slice.length, per_page: limit, current_page: page, total_pages: totalPages, links: { current: `?page=${page}&limit=${limit}` } } },
    });
  }

  private adjust(store: FakeStore, body: string): FakeReply {
    const input = parseObject(body);
    if (!input || !Array.isArray(input.items) || input.items.length === 0) return this.v3Error(422, "The field 'items' is required.");
    if (input.items.length > MAX_ADJUSTMENT_ITEMS) return this.v3Error(422, `The request can contain at most ${MAX_ADJUSTMENT_ITEMS} items.`);
    const refusal = store.adjustAbsolute(typeof input.reason === "string" ? input.reason : undefined, input.items as Record<string, number>[]);
    return refusal ? this.v3Error(422, refusal) : this.json(200, { transaction_id: store.transactionId() });
  }
}

function resource(base: string, path: string) {
  return { url: `${base}/v2${path}`, resource: path };
}

/** An order as v2 answers it; `include=consignments.line_items` with `consignment_structure=object` nests each address's products. */
/** Every fake order ships to and bills the same shopper (BigCommerce's address fields). */
const SHOPPER_ADDRESS = {
  first_name: "Sam",
  last_name: "Shopper",
  company: "",
  street_1: "12 Harbour Street",
  street_2: "",
  city: "Portland",
  state: "Oregon",
  zip: "97201",
  country: "United States",
  country_iso2: "US",
  phone: "503-555-0100",
};

function orderJson(base: string, order: FakeOrderA, query: URLSearchParams): Record<string, unknown> {
  const includes = (query.get("include") ?? "").split(",");
  const physical = order.products.filter((p) => p.type === "physical");
  const consignments = includes.includes("consignments.line_items") || includes.includes("consignments")
    ? {
        pickups: [],
        shipping: order.addresses.map((id) => {
          const lines = physical.filter((p) => p.order_address_id === id);
          return {
            id,
            ...SHOPPER_ADDRESS,
            email: order.email,
            line_items: includes.includes("consignments.line_items") ? lines : lines.map((p) => resource(base, `/orders/${order.id}/products/${p.id}`)),
            items_total: lines.reduce((sum, p) => sum + p.quantity, 0),
            items_shipped: lines.reduce((sum, p) => sum + p.quantity_shipped, 0),
          };
        }),
        downloads: [],
        email: { gift_certificates: [] },
      }
    : resource(base, `/orders/${order.id}/consignments`);
  return {
    id: order.id,
    status_id: order.status_id,
    status: STATUS_NAMES[order.status_id],
    channel_id: order.channel_id,
    customer_id: 0,
    date_created: "Tue, 17 Nov 2026 10:00:00 +0000",
    date_modified: order.date_modified.toUTCString().replace("GMT", "+0000"),
    items_total: order.products.reduce((sum, p) => sum + p.quantity, 0),
    items_shipped: order.products.reduce((sum, p) => sum + p.quantity_shipped, 0),
    billing_address: { ...SHOPPER_ADDRESS, email: order.email },
    payment_method: "Credit Card",
    payment_provider_id: `ch_${order.id}`,
    shipping_cost_ex_tax: "4.9500",
    total_tax: "0.0000",
    coupon_discount: "0.0000",
    store_credit_amount: "0.0000",
    products: resource(base, `/orders/${order.id}/products`),
    shipping_addresses: resource(base, `/orders/${order.id}/shipping_addresses`),
    shipments: resource(base, `/orders/${order.id}/shipments`),
    consignments: query.get("consignment_structure") === "object" || !includes.some((i) => i.startsWith("consignments")) ? consignments : [consignments],
  };
}

function productJson(product: FakeProductA, withVariants: boolean, fields: string[] | undefined): Record<string, unknown> {
  const full: Record<string, unknown> = { id: product.id, name: product.name, sku: product.sku, type: "physical", inventory_tracking: product.inventory_tracking, inventory_level: product.inventory_level };
  const picked = fields ? Object.fromEntries(Object.entries(full).filter(([key]) => key === "id" || fields.includes(key))) : full;
  return withVariants ? { ...picked, variants: product.variants.map((v) => ({ ...v })) } : picked;
}

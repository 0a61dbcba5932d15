import { randomBytes } from "node:crypto";
import { FakeServer, parseObject, type FakeAnswer, type FakeReply, type FakeRequest } from "./fake-server.ts";
import { FakeShopData, ORDER_STATUSES, type FakeOrderB, type FakeProductB } from "./storefront-b-shop.ts";

/**
 * A WooCommerce stand-in for storefront_b: one WordPress site whose REST API
 * lives under `/wp-json`, keys checked the way WC_REST_Authentication does
 * over HTTPS (the fake speaks plain HTTP but honours Basic as if it were
 * HTTPS). wc/v3 orders (`status` comma list, `per_page` at most 100, `page`,
 * `X-WP-Total`/`X-WP-TotalPages`), notes, batch updates (at most 100),
 * products and variations with stock; the Shipment Tracking extension's
 * routes when `shop.shipmentTracking` is on. A throttled shop answers 429
 * with `Retry-After`, as a host's rate limiter in front of WordPress does.
 */

const JSON_TYPE = "application/json; charset=UTF-8";
const MAX_PER_PAGE = 100;
const MAX_BATCH = 100;
const TRACKING_PLUGIN = "woocommerce-shipment-tracking/woocommerce-shipment-tracking.php";

function wpError(status: number, code: string, message: string, headers: Record<string, string> = {}): FakeReply {
  return { status, headers: { "content-type": JSON_TYPE, ...headers }, body: JSON.stringify({ code, message, data: { status } }) };
}

/** What WooCommerce's permission checks answer a request that carried no (honoured) key, by method. */
const NOT_ALLOWED: Record<string, FakeReply> = {
  GET: wpError(401, "woocommerce_rest_cannot_view", "Sorry, you cannot list resources."),
  POST: wpError(401, "woocommerce_rest_cannot_create", "Sorry, you are not allowed to create resources."),
  PUT: wpError(401, "woocommerce_rest_cannot_edit", "Sorry, you are not allowed to edit this resource."),
  DELETE: wpError(401, "woocommerce_rest_cannot_delete", "Sorry, you are not allowed to delete this resource."),
};

function basicCredentials(header: string | undefined): { key: string; secret: string } | null {
  if (!header?.startsWith("Basic ")) return null;
  const decoded = Buffer.from(header.slice(6), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  return colon < 0 ? null : { key: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** What a batch answers for an item it refused. */
interface Refusal {
  id: unknown;
  error: { code: string; message: string; data: { status: number } };
}

function isRefusal(item: Record<string, unknown> | Refusal): item is Refusal {
  return "error" in item && typeof item.error === "object";
}

/** `_fields` keeps only the named members, as the WordPress REST server does. */
function pick(row: Record<string, unknown>, fields: string | null): Record<string, unknown> {
  if (!fields) return row;
  const wanted = fields.split(",");
  return Object.fromEntries(Object.entries(row).filter(([key]) => wanted.includes(key)));
}

/** The shopper of every fake order (WooCommerce's address fields). */
const SHOPPER = {
  first_name: "Sam",
  last_name: "Shopper",
  company: "",
  address_1: "12 Harbour Street",
  address_2: "",
  city: "Portland",
  state: "OR",
  postcode: "97201",
  country: "US",
  phone: "503-555-0100",
};

export class FakeStorefrontB extends FakeServer {
  readonly consumerKey = `ck_${randomBytes(20).toString("hex")}`;
  readonly consumerSecret = `cs_${randomBytes(20).toString("hex")}`;
  /** The WooCommerce version the system status reports. */
  version = "9.4.2";
  /** Plugins the system status lists as active (the Shipment Tracking extension is added while `shop.shipmentTracking` is on). */
  activePlugins = [{ plugin: "woocommerce/woocommerce.php", name: "WooCommerce", version: this.version, version_latest: this.version, url: "https://woocommerce.com/", author_name: "Automattic", author_url: "https://woocommerce.com", network_activated: false }];
  readonly shop = new FakeShopData();

  constructor() {
    super({ routePrefix: "/wp-json", jsonType: JSON_TYPE });
    this.route("GET", "/wc/v3/system_status", () => this.json(200, this.systemStatus()));
    this.route("GET", "/wc/v3/orders", (request) => this.page(request, this.ordersMatching(request), (order) => this.orderJson(order)));
    this.route("POST", "/wc/v3/orders/batch", (request) => this.batch(request.body, (update) => this.updateOrder(update)));
    this.route("GET", "/wc/v3/orders/:id", (_request, params) => this.withOrder(params, (order) => this.json(200, this.orderJson(order))));
    this.route("PUT", "/wc/v3/orders/:id", (request, params) =>
      this.withOrder(params, (order) => {
        const result = this.updateOrder({ ...parseObject(request.body), id: order.id });
        return isRefusal(result) ? wpError(400, result.error.code, result.error.message) : this.json(200, result);
      }),
    );
    this.route("GET", "/wc/v3/orders/:id/notes", (_request, params) => this.withOrder(params, (order) => this.json(200, order.notes)));
    this.route("POST", "/wc/v3/orders/:id/notes", (request, params) => this.withOrder(params, (order) => this.createNote(order, request.body)));
    this.route("GET", "/wc-shipment-tracking/v3/orders/:id/shipment-trackings", (_request, params) =>
      this.withTracking(params, (order) => this.json(200, order.trackings.map((t) => this.trackingJson(t)))),
    );
    this.route("POST", "/wc-shipment-tracking/v3/orders/:id/shipment-trackings", (request, params) => this.withTracking(params, (order) => this.createTracking(order, request.body)));
    this.route("GET", "/wc/v3/products", (request) => this.page(request, this.productsMatching(request), (p) => pick(this.productJson(p), request.query.get("_fields"))));
    this.route("POST", "/wc/v3/products/batch", (request) => this.batch(request.body, (update) => this.updateStock(update, 0)));
    this.route("GET", "/wc/v3/products/:id/variations", (request, params) => {
      const parent = this.shop.products.get(Number(params.id));
      if (parent?.type !== "variable") return wpError(404, "woocommerce_rest_product_invalid_id", "Invalid ID.");
      return this.page(request, parent.variations.map((id) => this.shop.products.get(id)!), (p) => pick(this.productJson(p), request.query.get("_fields")));
    });
    this.route("POST", "/wc/v3/products/:id/variations/batch", (request, params) => this.batch(request.body, (update) => this.updateStock(update, Number(params.id))));
  }

  /** What WordPress answers when PHP dies in a plugin or theme (its fatal error handler); for `intercept`. */
  criticalError(): FakeReply {
    return wpError(500, "internal_server_error", "<p>There has been a critical error on this website.</p>");
  }

  /** Empties the shop and its request log (the keys stay). */
  reset(): void {
    this.shop.reset();
    this.requests.length = 0;
  }

  private systemStatus(): Record<string, unknown> {
    const tracking = { plugin: TRACKING_PLUGIN, name: "WooCommerce Shipment Tracking", version: "2.6.3", version_latest: "2.6.3", url: "https://woocommerce.com/products/shipment-tracking/", author_name: "WooCommerce", author_url: "https://woocommerce.com", network_activated: false };
    return {
      environment: {
        home_url: this.url,
        site_url: this.url,
        version: this.version,
        log_directory: "/var/www/html/wp-content/uploads/wc-logs/",
        log_directory_writable: true,
        wp_version: "6.7.1",
        wp_multisite: false,
        wp_memory_limit: 268435456,
        wp_debug_mode: false,
        wp_cron: true,
        language: "en_US",
        external_object_cache: null,
        server_info: "Apache/2.4.62 (Debian)",
        php_version: "8.2.26",
        mysql_version: "8.0.40",
        default_timezone: "UTC",
      },
      database: { wc_database_version: this.version, database_prefix: "wp_" },
      active_plugins: this.shop.shipmentTracking ? [...this.activePlugins, tracking] : this.activePlugins,
      inactive_plugins: [],
      theme: { name: "Storefront", version: "4.6.0", is_child_theme: false },
      settings: {
        api_enabled: true,
        force_ssl: false,
        currency: "USD",
        currency_symbol: "&#36;",
        currency_position: "left",
        thousand_separator: ",",
        decimal_separator: ".",
        number_of_decimals: 2,
        geolocation_enabled: false,
        woocommerce_com_connected: "no",
      },
      security: { secure_connection: true, hide_errors: true },
      pages: [],
      post_type_counts: [{ type: "product", count: String(this.shop.products.size) }],
    };
  }

  protected override answer(request: FakeRequest): FakeAnswer | Promise<FakeAnswer> {
    // WordPress resolves the route before the permission check, so an unknown route is a 404 even without keys.
    const route = this.findRoute(request);
    if (!route) return this.notFound();
    if (this.shop.throttle.times > 0) {
      this.shop.throttle.times -= 1;
      return wpError(429, "too_many_requests", "Too many requests, please slow down.", { "retry-after": String(this.shop.throttle.retryAfterSeconds) });
    }
    const credentials = basicCredentials(request.headers.authorization);
    if (credentials && credentials.key !== this.consumerKey) {
      return wpError(401, "woocommerce_rest_authentication_error", "Consumer key is invalid.");
    }
    if (credentials && credentials.secret !== this.consumerSecret) {
      return wpError(401, "woocommerce_rest_authentication_error", "Consumer secret is invalid.");
    }
    if (!credentials) return NOT_ALLOWED[request.method] ?? wpError(401, "rest_forbidden", "Sorry, you are not allowed to do that.");
    return route.handler(request, route.params);
  }

  protected override notFound(): FakeAnswer {
    return wpError(404, "rest_no_route", "No route was found matching the URL and request method.");
  }

  /** `per_page` (1 to 100, default 10) and `page`, with the totals in headers. */
  private page<T>(request: FakeRequest, rows: T[], render: (row: T) => unknown): FakeReply {
    const perPage = Number(request.query.get("per_page") ?? 10);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > MAX_PER_PAGE) return wpError(400, "rest_invalid_param", "Invalid parameter(s): per_page");
    const page = Math.max(1, Number(request.query.get("page") ?? 1) || 1);
    const totalPages = Math.ceil(rows.length / perPage);
    return this.json(200, rows.slice((page - 1) * perPage, page * perPage).map(render), { "x-wp-total": String(rows.length), "x-wp-totalpages": String(totalPages) });
  }

  /** `search` as WooCommerce's order search reads it here: the order number, id or billing e-mail containing the term. */
  private ordersMatching(request: FakeRequest): FakeOrderB[] {
    const search = request.query.get("search");
    const found = (order: FakeOrderB) => search === null || [order.number, String(order.id), order.email].some((text) => text.includes(search));
    const statuses = request.query.get("status")?.split(",");
    const include = request.query.get("include")?.split(",").map(Number);
    // WooCommerce reads modified_after in the site's time zone unless dates_are_gmt; this fake's site runs on GMT either way.
    const after = request.query.get("modified_after");
    const since = after === null ? null : Date.parse(`${after.replace(/Z$/, "")}Z`);
    return [...this.shop.orders.values()]
      .filter((order) => (!statuses || statuses.includes("any") || statuses.includes(order.status)) && (!include || include.includes(order.id)))
      .filter((order) => (since === null || order.date_modified.getTime() > since) && found(order))
      .sort((a, b) => (request.query.get("order") === "asc" ? a.id - b.id : b.id - a.id));
  }

  /** With `sku`, WooCommerce lists variations beside products (its query widens to both post types). */
  private productsMatching(request: FakeRequest): FakeProductB[] {
    const include = request.query.get("include")?.split(",").map(Number);
    const skus = request.query.get("sku")?.split(",");
    return [...this.shop.products.values()]
      .filter((p) => (skus ? skus.includes(p.sku) : p.type !== "variation") && (!include || include.includes(p.id)))
      .sort((a, b) => a.id - b.id);
  }

  private withOrder(params: Record<string, string>, then: (order: FakeOrderB) => FakeAnswer): FakeAnswer {
    const order = this.shop.orders.get(Number(params.id));
    return order ? then(order) : wpError(404, "woocommerce_rest_shop_order_invalid_id", "Invalid ID.");
  }

  /** The extension's routes exist only while it is active. */
  private withTracking(params: Record<string, string>, then: (order: FakeOrderB) => FakeAnswer): FakeAnswer {
    return this.shop.shipmentTracking ? this.withOrder(params, then) : this.notFound();
  }

  private orderJson(order: FakeOrderB): Record<string, unknown> {
    const meta = order.trackings.length ? [{ id: order.id * 10, key: "_wc_shipment_tracking_items", value: order.trackings }] : [];
    return {
      id: order.id,
      parent_id: 0,
      number: order.number,
      status: order.status,
      currency: "USD",
      date_created: "2026-11-17T10:00:00",
      date_created_gmt: "2026-11-17T10:00:00",
      date_modified_gmt: order.date_modified.toISOString().slice(0, 19),
      total: "42.00",
      shipping_total: "4.95",
      total_tax: "0.00",
      discount_total: "0.00",
      payment_method: "stripe",
      transaction_id: `pi_${order.id}`,
      customer_id: 0,
      billing: { ...SHOPPER, email: order.email },
      shipping: { ...SHOPPER, phone: "" },
      line_items: order.line_items,
      meta_data: meta,
    };
  }

  private trackingJson(tracking: FakeOrderB["trackings"][number]): Record<string, unknown> {
    const link = tracking.tracking_provider ? `https://track.example/${tracking.tracking_provider}/${tracking.tracking_number}` : "";
    return { ...tracking, tracking_link: link };
  }

  private productJson(product: FakeProductB): Record<string, unknown> {
    return { id: product.id, name: `Product ${product.sku}`, sku: product.sku, type: product.type, parent_id: product.parent_id, manage_stock: product.manage_stock, stock_quantity: product.stock_quantity, variations: product.variations };
  }

  private updateOrder(update: Record<string, unknown>): Record<string, unknown> | Refusal {
    const order = this.shop.orders.get(Number(update.id));
    if (!order) return { id: update.id, error: { code: "woocommerce_rest_shop_order_invalid_id", message: "Invalid ID.", data: { status: 400 } } };
    if (update.status !== undefined) {
      if (typeof update.status !== "string" || !ORDER_STATUSES.includes(update.status)) {
        return { id: order.id, error: { code: "rest_invalid_param", message: "Invalid parameter(s): status", data: { status: 400 } } };
      }
      this.shop.setStatus(order, update.status);
    }
    return this.orderJson(order);
  }

  /** Sets the stock of a product (or of a variation of `parentId`); WooCommerce ignores a quantity on an item that does not manage stock. */
  private updateStock(update: Record<string, unknown>, parentId: number): Record<string, unknown> | Refusal {
    const product = this.shop.products.get(Number(update.id));
    if (!product || product.parent_id !== parentId) return { id: update.id, error: { code: "woocommerce_rest_product_invalid_id", message: "Invalid ID.", data: { status: 400 } } };
    const quantity = update.stock_quantity;
    if (quantity !== undefined && (typeof quantity !== "number" || !Number.isInteger(quantity))) {
      return { id: product.id, error: { code: "rest_invalid_param", message: "Invalid parameter(s): stock_quantity", data: { status: 400 } } };
    }
    if (typeof quantity === "number" && product.manage_stock === true) product.stock_quantity = quantity;
    return this.productJson(product);
  }

  private batch(body: string, apply: (update: Record<string, unknown>) => Record<string, unknown> | Refusal): FakeReply {
    const input = parseObject(body);
    const updates = input?.update;
    if (!Array.isArray(updates)) return wpError(400, "rest_invalid_param", "Invalid parameter(s): update");
    if (updates.length > MAX_BATCH) return wpError(413, "woocommerce_rest_request_entity_too_large", `Unable to accept more than ${MAX_BATCH} items for this request.`);
    return this.json(200, { update: (updates as Record<string, unknown>[]).map(apply) });
  }

  private createNote(order: FakeOrderB, body: string): FakeReply {
    const input = parseObject(body);
    if (typeof input?.note !== "string" || input.note === "") return wpError(400, "rest_missing_callback_param", "Missing parameter(s): note");
    return this.json(201, this.shop.addNote(order, input.note, input.customer_note === true));
  }

  private createTracking(order: FakeOrderB, body: string): FakeReply {
    const input = parseObject(body);
    if (typeof input?.tracking_number !== "string" || input.tracking_number === "") return wpError(400, "rest_missing_callback_param", "Missing parameter(s): tracking_number");
    const text = (key: string) => (typeof input[key] === "string" ? (input[key] as string) : undefined);
    const tracking = this.shop.addTracking(order, {
      tracking_number: input.tracking_number,
      tracking_provider: text("tracking_provider"),
      custom_tracking_provider: text("custom_tracking_provider"),
      date_shipped: text("date_shipped"),
    });
    return this.json(201, this.trackingJson(tracking));
  }
}

import { randomBytes } from "node:crypto";
import { FakeServer, type FakeAnswer, type FakeReply, type FakeRequest } from "./fake-server.ts";

/**
 * A WooCommerce stand-in for storefront_b: one WordPress site whose REST API
 * lives under `/wp-json`, keys checked the way WC_REST_Authentication does
 * over HTTPS (the fake speaks plain HTTP but honours Basic as if it were
 * HTTPS). Routes are relative to `/wp-json`, so later work adds orders, notes
 * and shipment trackings with `route()`.
 */

const JSON_TYPE = "application/json; charset=UTF-8";

function wpError(status: number, code: string, message: string): FakeReply {
  return { status, headers: { "content-type": JSON_TYPE }, body: JSON.stringify({ code, message, data: { status } }) };
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

export class FakeStorefrontB extends FakeServer {
  readonly consumerKey = `ck_${randomBytes(20).toString("hex")}`;
  readonly consumerSecret = `cs_${randomBytes(20).toString("hex")}`;
  /** The WooCommerce version the system status reports. */
  version = "9.4.2";
  /** Plugins the system status lists as active, e.g. the Shipment Tracking extension. */
  activePlugins = [{ plugin: "woocommerce/woocommerce.php", name: "WooCommerce", version: this.version, version_latest: this.version, url: "https://woocommerce.com/", author_name: "Automattic", author_url: "https://woocommerce.com", network_activated: false }];

  constructor() {
    super({ routePrefix: "/wp-json", jsonType: JSON_TYPE });
    this.route("GET", "/wc/v3/system_status", () => this.json(200, this.systemStatus()));
  }

  private systemStatus(): Record<string, unknown> {
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
      active_plugins: this.activePlugins,
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
      post_type_counts: [{ type: "product", count: "12" }],
    };
  }

  protected override answer(request: FakeRequest): FakeAnswer | Promise<FakeAnswer> {
    // WordPress resolves the route before the permission check, so an unknown route is a 404 even without keys.
    const route = this.findRoute(request);
    if (!route) return this.notFound();
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
}

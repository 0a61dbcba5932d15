import { FakeServer, type FakeAnswer, type FakeRequest } from "./fake-server.ts";

/**
 * A BigCommerce stand-in for storefront_a: stores under `/stores/<hash>`,
 * authenticated by `X-Auth-Token` alone (the real API ignores
 * `X-Auth-Client`), JSON bodies shaped like the real ones. Routes are
 * store-relative (`/v2/store`), their handlers find the store by the `hash`
 * param, so later work adds orders, shipments and inventory with `route()`.
 */

export interface FakeStore {
  hash: string;
  accessToken: string;
  clientId: string;
  /** What `GET /v2/store` answers; edit it to change the answer. */
  profile: Record<string, unknown>;
}

const STATUS_DOCS = "https://developer.bigcommerce.com/api-docs/getting-started/api-status-codes";

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
    this.route("GET", "/v2/store", (_request, params) => this.json(200, this.stores.get(params.hash!)!.profile));
  }

  addStore(options: { hash: string; accessToken: string; clientId: string; name: string }): FakeStore {
    const store = { hash: options.hash, accessToken: options.accessToken, clientId: options.clientId, profile: storeProfile(options.hash, options.name) };
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
    return super.answer(request);
  }

  protected override notFound(): FakeAnswer {
    return this.json(404, [{ status: 404, message: "The requested resource was not found." }]);
  }
}

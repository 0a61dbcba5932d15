import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A BigCommerce stand-in for storefront_a: stores under `/stores/<hash>`,
 * authenticated by `X-Auth-Token` alone (the real API ignores
 * `X-Auth-Client`), JSON bodies shaped like the real ones. Routes are a
 * small table, so later work adds orders, shipments and inventory with
 * `route()`.
 */

export interface FakeRequest {
  method: string;
  /** Path and query as received, e.g. `/stores/abc123/v2/store`. */
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface FakeStore {
  hash: string;
  accessToken: string;
  clientId: string;
  /** What `GET /v2/store` answers; edit it to change the answer. */
  profile: Record<string, unknown>;
}

export interface FakeReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Handler = (request: FakeRequest, store: FakeStore, params: Record<string, string>) => FakeReply;

interface Route {
  method: string;
  pattern: RegExp;
  names: string[];
  handler: Handler;
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

export class FakeStorefrontA {
  readonly requests: FakeRequest[] = [];
  url = "";
  private readonly stores = new Map<string, FakeStore>();
  private readonly routes: Route[] = [];
  private server: Server | undefined;

  constructor() {
    this.route("GET", "/v2/store", (_request, store) => ({ status: 200, body: store.profile }));
  }

  /** Adds a handler for `method` and a store-relative path such as `/v2/orders/:id/shipments`. */
  route(method: string, path: string, handler: Handler): void {
    const names: string[] = [];
    const source = path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    this.routes.push({ method, pattern: new RegExp(`^${source}$`), names, handler });
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

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        const request = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body };
        this.requests.push(request);
        this.reply(res, this.answer(request));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => {
      this.server?.close(resolve);
      this.server?.closeAllConnections();
    });
  }

  private answer(request: FakeRequest): FakeReply {
    const match = /^\/stores\/([^/]+)(\/[^?]*)/.exec(request.url);
    const store = match ? this.stores.get(match[1]!) : undefined;
    // A token is only valid for its own store, so an unknown hash is as unauthorised as a wrong token.
    if (!match || !store || request.headers["x-auth-token"] !== store.accessToken) return { status: 401, body: UNAUTHORIZED };
    for (const route of this.routes) {
      const found = route.method === request.method ? route.pattern.exec(match[2]!) : null;
      if (found) return route.handler(request, store, Object.fromEntries(route.names.map((name, i) => [name, found[i + 1]!])));
    }
    return { status: 404, body: [{ status: 404, message: "The requested resource was not found." }] };
  }

  private reply(res: ServerResponse, reply: FakeReply): void {
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
    res.end(reply.body === undefined ? "" : JSON.stringify(reply.body));
  }
}

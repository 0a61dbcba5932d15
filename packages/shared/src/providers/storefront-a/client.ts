import type { Got } from "got";
import { z } from "zod";
import { createHttpClient, getJson, type UpstreamDetail } from "../../http.ts";

/**
 * storefront_a follows the BigCommerce REST API: v2 for store, orders and
 * shipments, v3 for catalog and inventory, both under one per-store base URL
 * `https://api.bigcommerce.com/stores/<store_hash>`.
 */
const SYSTEM = "storefront_a";
const API_HOST = "https://api.bigcommerce.com";

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
  if (site.api_base_url) return site.api_base_url.replace(/\/+$/, "").replace(/\/v[23]$/, "");
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
}

/** `GET /v2/store`: the members the platform reads; the rest of the profile passes through. */
const storeProfile = z.looseObject({
  id: z.string(),
  name: z.string(),
  domain: z.string(),
  secure_url: z.string().optional(),
  status: z.string().optional(),
});
export type StorefrontAStore = z.infer<typeof storeProfile>;

/** v2 errors are `[{status, message}]`, gateway and v3 errors `{status, title}`. */
function errorDetail(body: unknown): UpstreamDetail | undefined {
  const first = (Array.isArray(body) ? body[0] : body) as { message?: unknown; title?: unknown } | null | undefined;
  const text = first?.title ?? first?.message;
  return typeof text === "string" && text ? { reason: text } : undefined;
}

export class StorefrontAClient {
  private readonly http: Got;

  constructor(options: StorefrontAOptions) {
    this.http = createHttpClient({
      baseUrl: options.baseUrl,
      timeoutMs: options.timeoutMs,
      headers: { "x-auth-token": options.accessToken, "x-auth-client": options.clientId, accept: "application/json" },
    });
  }

  /** The store profile; the cheapest call that proves the base URL and the token. */
  async getStore(): Promise<StorefrontAStore> {
    return this.get("v2/store", storeProfile);
  }

  private async get<T extends z.ZodType>(path: string, schema: T): Promise<z.output<T>> {
    return getJson(this.http, SYSTEM, path, schema, errorDetail);
  }
}

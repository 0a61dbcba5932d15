import type { Got } from "got";
import { z } from "zod";
import { createHttpClient, getJson, type UpstreamDetail } from "../../http.ts";

/**
 * storefront_b follows the WooCommerce REST API (`wc/v3`) of a WordPress
 * site, reached under `<site_url>/wp-json`; other namespaces of the same site
 * (the Shipment Tracking extension's `wc-shipment-tracking/v3`) share that base.
 */
const SYSTEM = "storefront_b";

export interface StorefrontBOptions {
  siteUrl: string;
  consumerKey: string;
  consumerSecret: string;
  timeoutMs: number;
}

/** `GET /wc/v3/system_status`: the members the platform reads; the rest of the report passes through. */
const systemStatus = z.looseObject({
  environment: z.looseObject({
    site_url: z.string(),
    home_url: z.string().optional(),
    /** The WooCommerce version. */
    version: z.string(),
    wp_version: z.string().optional(),
  }),
  active_plugins: z.array(z.looseObject({ plugin: z.string(), name: z.string(), version: z.string() })).optional(),
  settings: z.looseObject({}).optional(),
});
export type StorefrontBSystemStatus = z.infer<typeof systemStatus>;

/** WordPress REST errors are `{code, message, data: {status}}`. */
function errorDetail(body: unknown): UpstreamDetail | undefined {
  const { code, message } = (body ?? {}) as { code?: unknown; message?: unknown };
  if (typeof message !== "string") return undefined;
  const reason = typeof code === "string" ? `${message} (${code})` : message;
  return reason ? { reason } : undefined;
}

export class StorefrontBClient {
  private readonly http: Got;

  constructor(options: StorefrontBOptions) {
    // WooCommerce honours HTTP Basic only over HTTPS; a plain-http site answers as if no key was sent.
    const basic = Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString("base64");
    this.http = createHttpClient({
      baseUrl: `${options.siteUrl.replace(/\/+$/, "")}/wp-json`,
      timeoutMs: options.timeoutMs,
      headers: { authorization: `Basic ${basic}`, accept: "application/json" },
    });
  }

  /** The system status report; the cheapest call that needs valid keys with read permission. */
  async getSystemStatus(): Promise<StorefrontBSystemStatus> {
    return this.get("wc/v3/system_status", systemStatus);
  }

  private async get<T extends z.ZodType>(path: string, schema: T): Promise<z.output<T>> {
    return getJson(this.http, SYSTEM, path, schema, errorDetail);
  }
}

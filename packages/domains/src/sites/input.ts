import { z } from "zod";
import { errors } from "@mw/platform/core";
import { Prisma } from "@mw/platform/database";
import { encryptSecret } from "@mw/platform/crypto";
import { Platform, type Site } from "@mw/platform/prisma";
import { storefrontABaseUrl } from "@mw/providers/storefront-a";
import { openCredentials, sealCredentials, TOKEN_MASK } from "./credentials.ts";

export const platformSchema = z.enum(Platform);

const httpUrl = z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).max(255);
const secret = z.string().min(1).max(1024);

/** Numeric status codes (spec 1, 3.4), normalised to `9,3` (no blanks), the form the tracking sync splits. */
const statusFilters = z
  .string()
  .max(64)
  .regex(/^\s*\d{1,3}\s*(,\s*\d{1,3}\s*)*$/, "must be comma-separated order status codes, e.g. 9,3")
  .transform((value) => value.split(",").map((code) => String(Number(code.trim()))).join(","));

/**
 * Every writable site field (spec 1, 2.2 input fields plus the settings of
 * design section 9). Nullable settings are cleared with `null`; absent
 * members are left as they are.
 */
const siteFields = z.object({
  name: z.string().trim().min(1).max(191),
  platform: platformSchema,
  site_url: httpUrl,
  /** storefront_a: API client id; storefront_b: consumer key. */
  api_key: z.string().trim().min(1).max(255),
  /** storefront_a: API access token; storefront_b: consumer secret. */
  api_secret: z.string().trim().min(1).max(255),
  is_active: z.boolean(),
  orders_sync: z.boolean(),
  inventory_sync: z.boolean(),
  tracking_sync: z.boolean(),
  tracking_enabled: z.boolean(),
  health_check_url: httpUrl.nullable(),
  status_filters: statusFilters,
  auto_complete: z.boolean(),
  send_customer_email: z.boolean(),
  channel_filter: z.object({ channel_id: z.number().int().min(1), name: z.string().trim().min(1).max(191) }).nullable(),
  out_of_stock_threshold: z.number().int().min(0).max(2_147_483_647),
  fraud_team_id: z.string().trim().min(1).max(64).nullable(),
  fraud_api_key: secret.nullable(),
  webhook_secret: secret.nullable(),
  api_base_url: httpUrl.nullable(),
  /** Spec 2, 4.2 order-volume test: how many hours back from the run count (and the length of the four weekday windows). */
  order_volume_window_hours: z.number().int().min(1).max(168),
  /** Fewer orders than this in the window fail the test; 0 leaves only the weekday comparison. */
  order_volume_min: z.number().int().min(0).max(2_147_483_647),
});

/** POST /sites: the site cannot work without these, the rest take the column defaults. */
export const siteCreateInput = siteFields
  .partial()
  .required({ name: true, platform: true, site_url: true, api_key: true, api_secret: true });

/** PUT /sites/{id}: the same body, every member optional. */
export const siteUpdateInput = siteFields.partial();

export type SiteCreateInput = z.output<typeof siteCreateInput>;
export type SiteUpdateInput = z.output<typeof siteUpdateInput>;

/** A storefront_a site must name its store somewhere, or no call to it can ever work. */
function assertReachable(site: { platform: Platform; site_url: string; api_base_url: string | null }): void {
  if (site.platform === Platform.storefront_a && storefrontABaseUrl(site) === null) {
    throw errors.invalidParam("api_base_url", "required for storefront_a unless site_url is https://store-<hash>.mybigcommerce.com");
  }
}

function sealOptional(value: string | null | undefined, key: Buffer): string | null | undefined {
  return value === undefined || value === null ? value : encryptSecret(value, key);
}

function jsonColumn(value: SiteUpdateInput["channel_filter"]) {
  return value === null ? Prisma.DbNull : value;
}

/**
 * The spec's input names only `tracking_sync`; `tracking_enabled` is the
 * design's extra switch. A body that turns tracking_sync on without naming the
 * switch means "sync tracking", so the switch follows; named, it is kept.
 */
function trackingEnabled(input: { tracking_sync?: boolean; tracking_enabled?: boolean }): boolean | undefined {
  return input.tracking_enabled ?? (input.tracking_sync ? true : undefined);
}

export function siteCreateData(input: SiteCreateInput, key: Buffer): Prisma.SiteCreateInput {
  const { api_key, api_secret, fraud_api_key, webhook_secret, channel_filter, ...plain } = input;
  assertReachable({ ...plain, api_base_url: plain.api_base_url ?? null });
  return {
    ...plain,
    tracking_enabled: trackingEnabled(plain),
    api_credentials: sealCredentials({ client_id: api_key, access_token: api_secret }, key),
    fraud_api_key: sealOptional(fraud_api_key, key),
    webhook_secret: sealOptional(webhook_secret, key),
    channel_filter: jsonColumn(channel_filter),
  };
}

/** The host the storefront's credentials are sent to: the API base's for storefront_a, the site's for storefront_b. */
function credentialsHost(site: { platform: Platform; site_url: string; api_base_url: string | null }): string | null {
  const target = site.platform === Platform.storefront_a ? storefrontABaseUrl(site) : site.site_url;
  return target ? new URL(target).host : null;
}

/**
 * The columns a partial update changes. `api_key` and `api_secret` may come
 * alone: the other half is taken from the stored credentials. The token was
 * entered for the host it is sent to: an update that sends the credentials to
 * another host without giving `api_secret` again drops them, so a changed URL
 * cannot carry the stored token elsewhere (docs/security.md).
 */
export function siteUpdateData(input: SiteUpdateInput, current: Site, key: Buffer): Prisma.SiteUpdateInput {
  const { api_key, api_secret: sentSecret, fraud_api_key, webhook_secret, channel_filter, ...plain } = input;
  // A form filled from GET /sites/{id} sends back the mask it was shown: that means "unchanged".
  const api_secret = sentSecret === TOKEN_MASK ? undefined : sentSecret;
  const next = {
    platform: plain.platform ?? current.platform,
    site_url: plain.site_url ?? current.site_url,
    api_base_url: plain.api_base_url === undefined ? current.api_base_url : plain.api_base_url,
  };
  assertReachable(next);
  const data: Prisma.SiteUpdateInput = { ...plain, tracking_enabled: trackingEnabled(plain) };
  if (api_secret === undefined && current.api_credentials && credentialsHost(next) !== credentialsHost(current)) {
    data.api_credentials = null;
  } else if (api_key !== undefined || api_secret !== undefined) {
    const stored = current.api_credentials ? openCredentials(current.api_credentials, key) : null;
    const client_id = api_key ?? stored?.client_id;
    const access_token = api_secret ?? stored?.access_token;
    if (client_id === undefined) throw errors.missingParam("api_key");
    if (access_token === undefined) throw errors.missingParam("api_secret");
    data.api_credentials = sealCredentials({ client_id, access_token }, key);
  }
  if (fraud_api_key !== undefined) data.fraud_api_key = sealOptional(fraud_api_key, key);
  if (webhook_secret !== undefined) data.webhook_secret = sealOptional(webhook_secret, key);
  if (channel_filter !== undefined) data.channel_filter = jsonColumn(channel_filter);
  return data;
}

import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import { egressGuard } from "@mw/platform/egress";
import type { Platform, Site } from "@mw/platform/prisma";
import { StorefrontAClient, storefrontABaseUrl } from "@mw/providers/storefront-a";
import { StorefrontBClient } from "@mw/providers/storefront-b";
import { openCredentials, type SiteCredentials } from "./credentials.ts";

type ClientConfig = Pick<Config, "ENCRYPTION_KEY" | "HTTP_TIMEOUT_MS" | "STOREFRONT_RATE_LIMIT_MAX_WAIT_MS" | "ALLOW_PRIVATE_URLS">;

/** A site that cannot be called at all; retrying will not help until an operator edits it. */
function misconfigured(message: string): AppError {
  const error = new AppError(400, "site_misconfigured", message);
  error.permanent = true;
  return error;
}

function credentialsOf(site: Site, config: ClientConfig): SiteCredentials {
  if (!site.api_credentials) throw misconfigured("the site has no API credentials");
  return openCredentials(site.api_credentials, config.ENCRYPTION_KEY);
}

export function storefrontAClientFor(site: Site, config: ClientConfig): StorefrontAClient {
  const baseUrl = storefrontABaseUrl(site);
  if (!baseUrl) throw misconfigured("api_base_url is not set and site_url names no store hash");
  const { client_id, access_token } = credentialsOf(site, config);
  return new StorefrontAClient({
    baseUrl,
    clientId: client_id,
    accessToken: access_token,
    timeoutMs: config.HTTP_TIMEOUT_MS,
    maxRateLimitWaitMs: config.STOREFRONT_RATE_LIMIT_MAX_WAIT_MS,
    egress: egressGuard(config),
  });
}

export function storefrontBClientFor(site: Site, config: ClientConfig): StorefrontBClient {
  const { client_id, access_token } = credentialsOf(site, config);
  return new StorefrontBClient({
    siteUrl: site.site_url,
    consumerKey: client_id,
    consumerSecret: access_token,
    timeoutMs: config.HTTP_TIMEOUT_MS,
    maxRateLimitWaitMs: config.STOREFRONT_RATE_LIMIT_MAX_WAIT_MS,
    egress: egressGuard(config),
  });
}

interface ConnectionResult {
  success: boolean;
  message: string;
  details: { platform: Platform; store_name: string | null; api_version: string | null };
}

/**
 * One authenticated read against the storefront. storefront_a reports the
 * store's name and the API version that answered (`v2`); storefront_b has no
 * store title in its API, so it reports the WordPress site URL and the
 * WooCommerce version.
 */
async function probe(site: Site, config: ClientConfig): Promise<{ store_name: string; api_version: string }> {
  if (site.platform === "storefront_a") {
    const store = await storefrontAClientFor(site, config).getStore();
    return { store_name: store.name, api_version: "v2" };
  }
  const status = await storefrontBClientFor(site, config).getSystemStatus();
  return { store_name: status.environment.site_url, api_version: status.environment.version };
}

/** Never throws for a storefront problem: the answer says what failed, for the operator to fix. */
export async function testSiteConnection(site: Site, config: ClientConfig): Promise<ConnectionResult> {
  try {
    const found = await probe(site, config);
    return { success: true, message: `Connected to ${found.store_name}.`, details: { platform: site.platform, ...found } };
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return {
      success: false,
      message: `Connection failed: ${error.message}`,
      details: { platform: site.platform, store_name: null, api_version: null },
    };
  }
}

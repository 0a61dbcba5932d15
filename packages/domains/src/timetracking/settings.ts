import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import type { RedisClient } from "@mw/platform/redis";
import type { PrismaClient } from "@mw/platform/database";
import type { Queues } from "@mw/platform/queues";
import type { OptionStore } from "../options/index.ts";
import { HarvestClient, type HarvestAuth } from "@mw/providers/harvest";

/** What the time-tracking code talks to. */
export interface TimeDeps {
  prisma: PrismaClient;
  redis: RedisClient;
  /** For the operator alert when Harvest refuses the platform's own app credentials. */
  queues: Queues;
  options: OptionStore;
  config: Pick<Config, "HARVEST_ID_URL" | "HARVEST_API_URL" | "HTTP_TIMEOUT_MS" | "QUEUE_PREFIX" | "ENCRYPTION_KEY" | "PUBLIC_URL">;
}

/** Design 10.8: with `time_api.enabled` off every time endpoint answers this. */
export const TIME_TRACKING_DISABLED = "Time tracking is disabled";

export async function requireTimeTracking(options: OptionStore): Promise<void> {
  if (!(await options.get("time_api.enabled"))) throw new AppError(400, "time_tracking_disabled", TIME_TRACKING_DISABLED);
}

/** The OAuth app's settings (spec 2, 2.3), or an error naming the ones missing. */
export async function oauthApp(options: OptionStore): Promise<{ clientId: string; clientSecret: string; redirectUri: string }> {
  const [clientId, clientSecret, redirectUri] = await Promise.all([options.get("time_api.client_id"), options.get("time_api.client_secret"), options.get("time_api.redirect_uri")]);
  const missing = [!clientId && "time_api.client_id", !clientSecret && "time_api.client_secret", !redirectUri && "time_api.redirect_uri"].filter(Boolean);
  if (missing.length || !clientSecret) throw new AppError(400, "time_tracking_not_configured", `Time tracking is not configured: ${missing.join(", ")} missing.`);
  return { clientId, clientSecret, redirectUri };
}

/** Design 10.8: `time_api.sync_user_agent` ("App (contact)"), else one naming this deployment. */
export async function harvestClient(deps: TimeDeps): Promise<HarvestClient> {
  const userAgent = (await deps.options.get("time_api.sync_user_agent")) ?? `Order Ops Platform (${deps.config.PUBLIC_URL ?? "https://localhost"})`;
  return new HarvestClient(deps.config, deps.redis, userAgent);
}

/** The sync credentials (design 10.8: import, project creation and task lists), or an error naming the missing ones. */
export async function syncAuth(options: OptionStore): Promise<HarvestAuth> {
  const [accountId, token] = await Promise.all([options.get("time_api.sync_account_id"), options.get("time_api.sync_token")]);
  const missing = [accountId === null && "time_api.sync_account_id", !token && "time_api.sync_token"].filter(Boolean);
  if (missing.length || accountId === null || !token) throw new AppError(400, "sync_credentials_missing", `Time tracking sync credentials are not set: ${missing.join(", ")} missing.`);
  return { accessToken: token, accountId };
}

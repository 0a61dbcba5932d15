import { AppError, egressGuard, type PayloadOf } from "@mw/platform";
import { siteForJob, storeWordPressReading, wordPressCredentials, wpCredentialsMissing, type siteSyncJob } from "@mw/domains/managed-sites";
import { readWordPress } from "@mw/providers/wordpress";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/**
 * sync_site (design 10.6): the site's WordPress name, description and
 * plugins, stored on its row. Reading again overwrites them: safe to rerun.
 */
export async function syncSite(_job: Job, payload: PayloadOf<typeof siteSyncJob>, ctx: JobContext) {
  const site = await siteForJob(ctx, payload.site_id);
  const credentials = wordPressCredentials(site, ctx.config.ENCRYPTION_KEY);
  if (!credentials) throw AppError.permanent(wpCredentialsMissing(site.id), "wp_credentials_missing");
  await ctx.progress(0, 2, "reading the WordPress REST API");
  const wordpress = await readWordPress(site.url, credentials, ctx.config.HTTP_TIMEOUT_MS, egressGuard(ctx.config));
  const syncedAt = await storeWordPressReading(ctx, site.id, wordpress);
  await ctx.progress(2, 2, `${wordpress.plugins.length} plugins`);
  return {
    site_id: site.id,
    wp_name: wordpress.name,
    plugins: wordpress.plugins.length,
    active: wordpress.plugins.filter((plugin) => plugin.active).length,
    updates_available: wordpress.plugins.filter((plugin) => plugin.update_available).length,
    synced_at: syncedAt.toISOString(),
  };
}

import { AppError, truncateCodePoints, type PayloadOf } from "@mw/platform";
import { wordPressCredentials, wpCredentialsMissing, type siteSyncJob } from "@mw/shared/dashboard";
import { readWordPress } from "@mw/providers/wordpress";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";
import { managedSite } from "./site.ts";

/**
 * sync_site (design 10.6): the site's WordPress name, description and
 * plugins, stored on its row. Reading again overwrites them: safe to rerun.
 */
export async function syncSite(_job: Job, payload: PayloadOf<typeof siteSyncJob>, ctx: JobContext) {
  const site = await managedSite(ctx, payload.site_id);
  const credentials = wordPressCredentials(site, ctx.config.ENCRYPTION_KEY);
  if (!credentials) throw AppError.permanent(wpCredentialsMissing(site.id), "wp_credentials_missing");
  await ctx.progress(0, 2, "reading the WordPress REST API");
  const wordpress = await readWordPress(site.url, credentials, ctx.config.HTTP_TIMEOUT_MS);
  const syncedAt = new Date();
  await ctx.prisma.managedSite.update({
    where: { id: site.id },
    data: { wp_name: truncateCodePoints(wordpress.name, 255), wp_description: wordpress.description, plugins: wordpress.plugins as object[], synced_at: syncedAt },
  });
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

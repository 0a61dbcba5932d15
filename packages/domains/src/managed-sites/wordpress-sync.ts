import { AppError } from "@mw/platform/core";
import { egressGuard } from "@mw/platform/egress";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { readWordPress } from "@mw/providers/wordpress";
import { wordPressCredentials, wpCredentialsMissing } from "./jobs.ts";
import { siteForJob, storeWordPressReading } from "./site-results.ts";

/**
 * sync_site (design 10.6): the site's WordPress name, description and
 * plugins, stored on its row. Reading again overwrites them: safe to rerun.
 */
export async function syncSiteWordPress(deps: Pick<Connections, "prisma" | "config"> & Pick<JobRun, "progress">, siteId: number) {
  const site = await siteForJob(deps, siteId);
  const credentials = wordPressCredentials(site, deps.config.ENCRYPTION_KEY);
  if (!credentials) throw AppError.permanent(wpCredentialsMissing(site.id), "wp_credentials_missing");
  await deps.progress(0, 2, "reading the WordPress REST API");
  const wordpress = await readWordPress(site.url, credentials, deps.config.HTTP_TIMEOUT_MS, egressGuard(deps.config));
  const syncedAt = await storeWordPressReading(deps, site.id, wordpress);
  await deps.progress(2, 2, `${wordpress.plugins.length} plugins`);
  return {
    site_id: site.id,
    wp_name: wordpress.name,
    plugins: wordpress.plugins.length,
    active: wordpress.plugins.filter((plugin) => plugin.active).length,
    updates_available: wordpress.plugins.filter((plugin) => plugin.update_available).length,
    synced_at: syncedAt.toISOString(),
  };
}

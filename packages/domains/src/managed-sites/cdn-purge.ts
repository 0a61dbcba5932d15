import { AppError } from "@mw/platform/core";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { purgeZone } from "@mw/providers/cdn";
import { cdnCredentials, cdnCredentialsMissing } from "./jobs.ts";
import { siteForJob } from "./site-results.ts";

/** update_cdn: purge everything in the site's zone (purging twice is harmless). */
export async function purgeSiteCdn(deps: Pick<Connections, "prisma" | "config"> & Pick<JobRun, "log" | "progress">, siteId: number) {
  const site = await siteForJob(deps, siteId);
  const cdn = cdnCredentials(site, deps.config.ENCRYPTION_KEY);
  if (!cdn) throw AppError.permanent(cdnCredentialsMissing(site.id), "cdn_not_configured");
  await deps.progress(0, 1, `purging zone ${cdn.zoneId}`);
  const purge = await purgeZone(deps.config.CDN_API_URL, cdn.zoneId, cdn.token, deps.config.HTTP_TIMEOUT_MS);
  deps.log.info("CDN zone purged", { site_id: site.id, zone_id: cdn.zoneId });
  await deps.progress(1, 1, "purged");
  return { site_id: site.id, zone_id: cdn.zoneId, purged: true, ...purge, purged_at: new Date().toISOString() };
}

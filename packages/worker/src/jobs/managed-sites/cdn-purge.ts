import { AppError, type PayloadOf } from "@mw/platform";
import { cdnCredentials, cdnCredentialsMissing, siteForJob, type cdnPurgeJob } from "@mw/domains/managed-sites";
import { purgeZone } from "@mw/providers/cdn";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** update_cdn: purge everything in the site's zone (purging twice is harmless). */
export async function purgeCdn(_job: Job, payload: PayloadOf<typeof cdnPurgeJob>, ctx: JobContext) {
  const site = await siteForJob(ctx, payload.site_id);
  const cdn = cdnCredentials(site, ctx.config.ENCRYPTION_KEY);
  if (!cdn) throw AppError.permanent(cdnCredentialsMissing(site.id), "cdn_not_configured");
  await ctx.progress(0, 1, `purging zone ${cdn.zoneId}`);
  const purge = await purgeZone(ctx.config.CDN_API_URL, cdn.zoneId, cdn.token, ctx.config.HTTP_TIMEOUT_MS);
  ctx.log.info("CDN zone purged", { site_id: site.id, zone_id: cdn.zoneId });
  await ctx.progress(1, 1, "purged");
  return { site_id: site.id, zone_id: cdn.zoneId, purged: true, ...purge, purged_at: new Date().toISOString() };
}

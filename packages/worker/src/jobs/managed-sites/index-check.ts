import { AppError, type PayloadOf } from "@mw/platform";
import { INDEX_NOT_CONFIGURED, siteForJob, type indexCheckJob } from "@mw/domains/managed-sites";
import { inspectUrl } from "@mw/providers/url-inspection";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** check_indexed: the inspection API's verdict on one page of the site, its property being the site's base URL. */
export async function checkIndexed(_job: Job, payload: PayloadOf<typeof indexCheckJob>, ctx: JobContext) {
  const { INDEX_API_URL: apiUrl, INDEX_API_TOKEN: token } = ctx.config;
  if (!apiUrl || !token) throw AppError.permanent(INDEX_NOT_CONFIGURED, "index_api_not_configured");
  const site = await siteForJob(ctx, payload.site_id);
  await ctx.progress(0, 1, `inspecting ${payload.url}`);
  const status = await inspectUrl(apiUrl, token, { inspectionUrl: payload.url, siteUrl: `${site.url}/` }, ctx.config.HTTP_TIMEOUT_MS);
  await ctx.progress(1, 1, status.verdict ?? "no verdict");
  return { site_id: site.id, ...status, checked_at: new Date().toISOString() };
}

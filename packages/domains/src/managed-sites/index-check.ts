import { AppError } from "@mw/platform/core";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { inspectUrl } from "@mw/providers/url-inspection";
import { INDEX_NOT_CONFIGURED } from "./jobs.ts";
import { siteForJob } from "./site-results.ts";

/** check_indexed: the inspection API's verdict on one page of the site, its property being the site's base URL. */
export async function inspectSitePage(deps: Pick<Connections, "prisma" | "config"> & Pick<JobRun, "progress">, siteId: number, url: string) {
  const { INDEX_API_URL: apiUrl, INDEX_API_TOKEN: token } = deps.config;
  if (!apiUrl || !token) throw AppError.permanent(INDEX_NOT_CONFIGURED, "index_api_not_configured");
  const site = await siteForJob(deps, siteId);
  await deps.progress(0, 1, `inspecting ${url}`);
  const status = await inspectUrl(apiUrl, token, { inspectionUrl: url, siteUrl: `${site.url}/` }, deps.config.HTTP_TIMEOUT_MS);
  await deps.progress(1, 1, status.verdict ?? "no verdict");
  return { site_id: site.id, ...status, checked_at: new Date().toISOString() };
}

import { z } from "zod";
import { defineJob, jobId, jobRef, type JobDefinition, type Queues } from "@mw/platform/queues";
import { siteSecrets, type ManagedSiteRow } from "./sites.ts";

/** One managed site's job; the URL is there for people reading Bull Board (the processor reads the site's row). */
const siteJob = z.object({ site_id: z.number().int().positive(), site_url: z.string().max(255) });

/** sync_site: the site's WordPress name, description and plugins, read from its REST API. */
export const siteSyncJob = defineJob({ queue: "dashboard", name: "site-sync", payload: siteJob });

/** run_audit: how the site's home page is served (timings, size, compression, HTTP version, cache headers, redirects). */
export const siteAuditJob = defineJob({ queue: "dashboard", name: "site-audit", payload: siteJob });

/** check_ssl {id}: one site's certificate. */
export const sslCheckJob = defineJob({ queue: "dashboard", name: "ssl-check", payload: siteJob });

/**
 * check_ssl without id, and daily: every active https site's certificate,
 * with an alert e-mail for each one that expires within SSL_ALERT_DAYS.
 */
export const sslCheckAllJob = defineJob({ queue: "dashboard", name: "ssl-check-all", payload: z.object({}), schedule: { pattern: "0 6 * * *" } });

/** Certificates expiring within this many days are alerted on (issue 16). */
export const SSL_ALERT_DAYS = 14;

/** Once per site per day, whichever run finds it first. */
export const sslAlertJobId = (siteId: number, day: string) => jobId("ssl-expiry-alert", siteId, day);

/** What sync_site signs in with; null when the site lacks either (the action refuses it, the job fails). */
export function wordPressCredentials(site: ManagedSiteRow, key: Buffer): { username: string; appPassword: string } | null {
  const { wpAppPassword } = siteSecrets(site, key);
  return site.wp_username && wpAppPassword ? { username: site.wp_username, appPassword: wpAppPassword } : null;
}

export const wpCredentialsMissing = (siteId: number) => `Site ${siteId} has no WordPress user and application password: set wp_username and wp_app_password with update_site.`;

/** What update_cdn purges with; null when the site lacks either. */
export function cdnCredentials(site: ManagedSiteRow, key: Buffer): { zoneId: string; token: string } | null {
  const { cdnApiToken } = siteSecrets(site, key);
  return site.cdn_zone_id && cdnApiToken ? { zoneId: site.cdn_zone_id, token: cdnApiToken } : null;
}

export const cdnCredentialsMissing = (siteId: number) => `Site ${siteId} has no CDN zone id and API token: set cdn_zone_id and cdn_api_token with update_site.`;

/** Why take_screenshot cannot run: no browser on this machine. */
export const NO_BROWSER = "No browser configured: set CHROME_PATH";

/** Why check_indexed cannot run. */
export const INDEX_NOT_CONFIGURED = "URL inspection is not configured: set INDEX_API_URL and INDEX_API_TOKEN";

/** take_screenshot: a PNG of the site's home page from headless Chromium. */
export const screenshotJob = defineJob({ queue: "dashboard", name: "site-screenshot", payload: siteJob });

/** update_cdn: purge the site's CDN zone. */
export const cdnPurgeJob = defineJob({ queue: "dashboard", name: "cdn-purge", payload: siteJob });

/** check_indexed: whether the search engine has a page of the site (the home page unless `url` names another). */
export const indexCheckJob = defineJob({ queue: "dashboard", name: "index-check", payload: siteJob.extend({ url: z.url() }) });

/**
 * Queues an admin action's job under a fresh id, unless the same work (the
 * same job for the same `key`) is still waiting or running: then that job is
 * the answer (BullMQ deduplication, released when it finishes), so a double
 * click starts nothing twice. Answers get_job's `job_id` and whether this
 * call queued it.
 */
export async function requestDashboardJob<S extends z.ZodType>(queues: Queues, job: JobDefinition<S>, payload: z.input<S>, key: (string | number)[]) {
  const id = jobId(job.name, ...key, Date.now());
  const added = await queues.add(job, payload, { jobId: id, deduplication: { id: jobId(job.name, ...key) } });
  return { job_id: jobRef(job.queue, added.id ?? id), queued: added.id === id };
}

import { AppError, errors, type JobDefinition } from "@mw/platform";
import {
  cdnCredentials,
  cdnCredentialsMissing,
  cdnPurgeJob,
  formId,
  idInput,
  INDEX_NOT_CONFIGURED,
  indexCheckJob,
  ManagedSites,
  type ManagedSiteRow,
  NO_BROWSER,
  requestDashboardJob,
  screenshotJob,
  siteAuditJob,
  siteSyncJob,
  sslCheckAllJob,
  sslCheckJob,
  wordPressCredentials,
  wpCredentialsMissing,
} from "@mw/domains/managed-sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { adminAction, type AdminAction } from "../../http/admin-ajax.ts";

/** What an action that starts a job answers: get_job's id, and false when the same work was already under way (that job is the answer). */
const queuedJob = z.object({ job_id: z.string(), queued: z.boolean() });

const example = <I>(input: I, job: string) => ({ input, data: { job_id: `dashboard:${job}.3.1764064800000`, queued: true } });

/** The server lacks what an action needs (a browser, an API); the request itself was fine. */
const notConfigured = (code: string, message: string) => new AppError(503, code, message);

/**
 * Design 10.6: the long managed-site actions run as jobs on the `dashboard`
 * queue; each answers the job id at once (follow it with get_job, or in Bull
 * Board). What can be known without calling out (the site, its credentials,
 * the server's configuration) is refused here, before any job exists.
 */
export function siteJobActions(ctx: Pick<AppContext, "config" | "prisma" | "queues">): AdminAction[] {
  const sites = new ManagedSites(ctx);
  const key = ctx.config.ENCRYPTION_KEY;
  const queue = (job: JobDefinition, site: ManagedSiteRow, extra: Record<string, unknown> = {}, dedupe: (string | number)[] = [site.id]) =>
    requestDashboardJob(ctx.queues, job, { site_id: site.id, site_url: site.url, ...extra }, dedupe);

  /** An action on one site (`{id}`) that starts `job` unless `refuse` finds a reason not to. */
  const siteAction = (name: string, group: string, summary: string, job: JobDefinition, refuse: (site: ManagedSiteRow) => AppError | undefined = () => undefined) =>
    adminAction({
      name,
      group,
      summary,
      input: idInput,
      data: queuedJob,
      example: example({ id: 3 }, job.name),
      handler: async ({ id }) => {
        const site = await sites.find(id);
        const refusal = refuse(site);
        if (refusal) throw refusal;
        return queue(job, site);
      },
    });

  return [
    siteAction("sync_site", "Sites", "Read the site's WordPress REST API (name, description; plugins with the application password) into the site: a job", siteSyncJob, (site) =>
      wordPressCredentials(site, key) ? undefined : errors.conflict("wp_credentials_missing", wpCredentialsMissing(site.id)),
    ),
    siteAction(
      "run_audit",
      "Utilities",
      "Audit how the site's URL is served (TTFB, total time, transfer size, compression, HTTP version, cache headers, redirects); stored as the site's last_audit: a job",
      siteAuditJob,
    ),
    siteAction("take_screenshot", "Utilities", "A PNG of the site's home page from headless Chromium, kept in storage (get_job download=1 gives it): a job", screenshotJob, () =>
      ctx.config.CHROME_PATH ? undefined : notConfigured("no_browser", NO_BROWSER),
    ),
    siteAction("update_cdn", "Utilities", "Purge everything in the site's CDN zone (its zone id and API token): a job", cdnPurgeJob, (site) =>
      cdnCredentials(site, key) ? undefined : errors.conflict("cdn_not_configured", cdnCredentialsMissing(site.id)),
    ),
    adminAction({
      name: "check_ssl",
      group: "Utilities",
      summary: "Read the site's TLS certificate (issuer, expiry, days left) into the site; without id, every active https site (alerting on those expiring within 14 days): a job",
      input: z.object({ id: formId.optional() }),
      data: queuedJob,
      example: example({ id: 3 }, sslCheckJob.name),
      handler: async ({ id }) => {
        if (id === undefined) return requestDashboardJob(ctx.queues, sslCheckAllJob, {}, []);
        const site = await sites.find(id);
        if (!site.url.startsWith("https://")) throw errors.conflict("not_https", `Site ${id} (${site.url}) is not served over https: it has no certificate to check.`);
        return queue(sslCheckJob, site);
      },
    }),
    adminAction({
      name: "check_indexed",
      group: "Utilities",
      summary: "Ask the URL inspection API (INDEX_API_URL) whether a page of the site is indexed (the home page unless url names another): a job",
      input: z.object({ id: formId, url: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional() }),
      data: queuedJob,
      example: example({ id: 3, url: "https://shop.acme.example/products/" }, indexCheckJob.name),
      handler: async ({ id, url }) => {
        if (!ctx.config.INDEX_API_URL || !ctx.config.INDEX_API_TOKEN) throw notConfigured("index_api_not_configured", INDEX_NOT_CONFIGURED);
        const site = await sites.find(id);
        const page = url ?? `${site.url}/`;
        if (!page.startsWith(`${site.url}/`)) throw errors.invalidInput(`url: must be a page of the site (${site.url}/...)`);
        return queue(indexCheckJob, site, { url: page }, [id, page]);
      },
    }),
  ];
}

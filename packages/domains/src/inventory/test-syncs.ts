import { errors } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";
import { findSyncSettings, inventorySyncEnabled, sitesNotSyncing, syncingSites, type SyncSettings } from "../sites/index.ts";
import { inventorySyncJob, testInventorySyncJobId } from "./jobs.ts";

/** Why a site gets no full inventory sync, or null when it may have one. */
function refusal(site: SyncSettings): string | null {
  if (!inventorySyncEnabled(site)) return site.is_active ? "Inventory sync is off for this site." : "The site is inactive.";
  if (!site.has_api_credentials) return "The site has no API credentials.";
  return null;
}

/**
 * Full inventory-sync jobs by hand (POST /testing/inventory/sync, spec 1,
 * 4.8): for one site, or for every active site with inventory sync. A site
 * that may not sync, or whose job Redis refused, is listed with why.
 */
export async function queueTestInventorySyncs(deps: Pick<Connections, "prisma" | "queues" | "logger">, selector: number | "all") {
  let sites: SyncSettings[];
  // "all" leaves out the sites that do not sync inventory, and says so with why.
  let skipped: { site_id: number; reason: string }[] = [];
  if (selector === "all") {
    [sites, skipped] = await Promise.all([syncingSites(deps, "inventory"), sitesNotSyncing(deps, "inventory")]);
  } else {
    const site = await findSyncSettings(deps, selector);
    if (!site) throw errors.notFound("Site not found.");
    sites = [site];
  }
  const at = Date.now();
  const queued: { site_id: number; job_id: string }[] = [];
  const failed: { site_id: number; message: string }[] = [];
  for (const site of sites) {
    const reason = refusal(site);
    if (reason) {
      failed.push({ site_id: site.id, message: reason });
      continue;
    }
    const id = testInventorySyncJobId(site.id, at);
    try {
      await deps.queues.add(inventorySyncJob, { site_id: site.id }, { jobId: id });
      queued.push({ site_id: site.id, job_id: id });
    } catch (error) {
      deps.logger.error("inventory sync could not be queued", { site_id: site.id, error });
      failed.push({ site_id: site.id, message: "The job could not be queued; retry later." });
    }
  }
  deps.logger.info("inventory sync queued by hand", { site_id: selector, queued, failed, skipped });
  return { queued, failed, skipped };
}

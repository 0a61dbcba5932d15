import type { SyncRun } from "@mw/platform/prisma";
import { errors } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";
import { findSyncSettings, latestSyncRuns, sitesNotSyncing, syncingSites, trackingSyncEnabled } from "../sites/index.ts";
import { manualTrackingSyncJobId, trackingSchedulerId, trackingSyncJob } from "./jobs.ts";

type Deps = Pick<Connections, "prisma" | "queues" | "logger">;

/** A job that runs before the waiting scheduled ones (lifo: head of the line), per site. */
async function queueNow(deps: Deps, siteIds: number[]): Promise<{ site_id: number; job_id: string }[]> {
  const at = Date.now();
  const queued = [];
  for (const siteId of siteIds) {
    const id = manualTrackingSyncJobId(siteId, at);
    await deps.queues.add(trackingSyncJob, { site_id: siteId }, { jobId: id, lifo: true }).catch((error: unknown) => {
      throw errors.queueUnavailable("The tracking sync could not be queued", error);
    });
    queued.push({ site_id: siteId, job_id: id });
  }
  deps.logger.info("tracking sync queued by hand", { queued });
  return queued;
}

/** A tracking sync of one site, run at once; refused for a site that does not sync tracking. */
export async function queueTrackingSync(deps: Deps, siteId: number): Promise<{ site_id: number; job_id: string }[]> {
  const site = await findSyncSettings(deps, siteId);
  if (!site) throw errors.notFound("Site not found.");
  if (!trackingSyncEnabled(site)) {
    throw errors.invalidParam("site_id", "tracking sync is off for this site: it needs is_active, tracking_sync and tracking_enabled");
  }
  return queueNow(deps, [siteId]);
}

/** A tracking sync, run at once, of every site that syncs tracking; the others are listed with why they were skipped. */
export async function queueTrackingSyncOfAll(deps: Deps): Promise<{ queued: { site_id: number; job_id: string }[]; skipped: { site_id: number; reason: string }[] }> {
  const [sites, skipped] = await Promise.all([syncingSites(deps, "tracking"), sitesNotSyncing(deps, "tracking")]);
  return { queued: await queueNow(deps, sites.map((site) => site.id)), skipped };
}

/** A site's tracking state: whether it syncs, its last run and last failed run, and when its scheduler runs next. */
export async function trackingStatus(
  deps: Pick<Connections, "prisma" | "queues">,
  siteId: number,
): Promise<{ enabled: boolean; last: SyncRun | null; lastFailed: SyncRun | null; nextRunAt: number | null }> {
  const site = await findSyncSettings(deps, siteId);
  if (!site) throw errors.notFound("Site not found.");
  const [{ last, lastFailed }, scheduler] = await Promise.all([
    latestSyncRuns(deps, siteId, "tracking"),
    deps.queues.get(trackingSyncJob.queue).getJobScheduler(trackingSchedulerId(siteId)),
  ]);
  return { enabled: trackingSyncEnabled(site), last, lastFailed, nextRunAt: scheduler?.next ?? null };
}

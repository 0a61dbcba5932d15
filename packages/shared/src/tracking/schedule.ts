import type { PrismaClient } from "../platform/db.ts";
import type { Queues } from "../platform/index.ts";
import { TRACKING_SYNC_SITES } from "../sites/index.ts";
import { isTrackingScheduler, trackingSchedulerId, trackingSyncJob } from "./jobs.ts";

/** Spec 1, section 8: the tracking sync runs every 30 minutes per site. */
export const TRACKING_SYNC_EVERY_MS = 30 * 60_000;

async function schedule(queues: Queues, siteId: number): Promise<void> {
  const data = trackingSyncJob.payload.parse({ site_id: siteId });
  // Upserting an unchanged scheduler keeps its next run; a new one runs at once, then every 30 minutes.
  await queues.get(trackingSyncJob.queue).upsertJobScheduler(trackingSchedulerId(siteId), { every: TRACKING_SYNC_EVERY_MS }, { name: trackingSyncJob.name, data });
}

async function unschedule(queues: Queues, schedulerId: string): Promise<void> {
  const queue = queues.get(trackingSyncJob.queue);
  const scheduler = await queue.getJobScheduler(schedulerId);
  if (!scheduler) return;
  await queue.removeJobScheduler(schedulerId);
  // BullMQ drops only a delayed next run; one already due (a new scheduler's first) would still sync a site
  // that no longer wants it. Its id is BullMQ's `repeat:<scheduler>:<next>`; a run already active is left to finish.
  if (scheduler.next) await queue.remove(`repeat:${schedulerId}:${scheduler.next}`);
}

/**
 * Brings one site's scheduler in line with its row as stored now: created
 * when the site syncs tracking, removed when it does not or no longer exists.
 * The row is read again rather than taken from the caller, so when two
 * saves race, the later sync acts on the later state.
 */
export async function syncTrackingSchedule(prisma: PrismaClient, queues: Queues, siteId: number): Promise<void> {
  const site = await prisma.site.findFirst({ where: { id: siteId, ...TRACKING_SYNC_SITES }, select: { id: true } });
  if (site) await schedule(queues, siteId);
  else await unschedule(queues, trackingSchedulerId(siteId));
}

/**
 * Every site's scheduler from the database: the missing ones are created
 * (schedulers lost with Redis, or a save whose scheduler update failed) and
 * those of sites that no longer sync tracking are removed. Workers serving
 * the tracking queue run it at start.
 */
export async function reconcileTrackingSchedules(prisma: PrismaClient, queues: Queues): Promise<{ scheduled: number; removed: number }> {
  const sites = await prisma.site.findMany({ where: TRACKING_SYNC_SITES, select: { id: true }, orderBy: { id: "asc" } });
  for (const site of sites) await schedule(queues, site.id);
  const wanted = new Set(sites.map((site) => trackingSchedulerId(site.id)));
  let removed = 0;
  for (const scheduler of await queues.get(trackingSyncJob.queue).getJobSchedulers()) {
    if (!isTrackingScheduler(scheduler.key) || wanted.has(scheduler.key)) continue;
    await unschedule(queues, scheduler.key);
    removed += 1;
  }
  return { scheduled: sites.length, removed };
}

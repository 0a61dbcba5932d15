import { siteSchedule, TRACKING_SYNC_SITES } from "../sites/index.ts";
import { isTrackingScheduler, trackingSchedulerId, trackingSyncJob } from "./jobs.ts";

/** Spec 1, section 8: the tracking sync runs every 30 minutes per site. */
export const TRACKING_SYNC_EVERY_MS = 30 * 60_000;

/** Sites that sync tracking have a scheduler; sites routes `sync` it after each save, workers serving tracking `reconcile`. */
export const trackingSchedule = siteSchedule({
  job: trackingSyncJob,
  everyMs: TRACKING_SYNC_EVERY_MS,
  sites: TRACKING_SYNC_SITES,
  schedulerId: trackingSchedulerId,
  isScheduler: isTrackingScheduler,
});

import { z } from "zod";
import { defineJob, jobId } from "@mw/platform/queues";
import type { TrackingCounts } from "../sites/index.ts";

/**
 * Post ERP tracking numbers to one site's storefront (spec 1, 4.7); every 30
 * minutes per site through the job scheduler `tracking-sync.<site id>`
 * (schedule.ts: it follows the sites table, so it is not a catalog schedule).
 */
export const trackingSyncJob = defineJob({ queue: "tracking", name: "tracking-sync", payload: z.object({ site_id: z.number().int().positive() }) });

/** The job scheduler of one site. */
export const trackingSchedulerId = (siteId: number) => jobId("tracking-sync", siteId);

/** Whether a scheduler of the tracking queue is one of trackingSchedulerId's. */
export const isTrackingScheduler = (key: string) => /^tracking-sync\.\d+$/.test(key);

/** A run asked for by an operator, beside the scheduled one. */
export const manualTrackingSyncJobId = (siteId: number, at: number) => jobId("tracking-sync", siteId, "manual", at);

/** The health ping after one successful run. */
export const trackingHealthPingJobId = (siteId: number, runId: number) => jobId("health-ping", "tracking", siteId, runId);

/**
 * Post one order's ERP tracking numbers again (the toolshed's re-push): the
 * same rules as `tracking-sync`, for that order whatever its status, and a
 * number our records call posted is checked on the storefront and posted
 * again when it is gone from there.
 */
export const trackingOrderPushJob = defineJob({
  queue: "tracking",
  name: "tracking-order-push",
  payload: z.object({ site_id: z.number().int().positive(), order_number: z.string().min(1).max(20) }),
});

/** One re-push per stored order at a time: a second request while it runs joins it. */
export const trackingOrderPushJobId = (siteId: number, orderId: number) => jobId("tracking-order-push", siteId, orderId);

/** What a re-push answers: the run's counts, or why it did nothing. */
export type TrackingOrderPushResult = { skipped: "site_not_found" | "tracking_disabled" | "order_not_found" } | { counts: TrackingCounts };

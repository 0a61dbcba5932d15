export { queueTrackingSync, queueTrackingSyncOfAll, trackingStatus } from "./manual-sync.ts";
export { TRACKING_SYNC_EVERY_MS, trackingSchedule } from "./schedule.ts";
export { trackingOrderPushJob, trackingOrderPushJobId, trackingSyncJob, type TrackingOrderPushResult } from "./jobs.ts";
export { postedTracking } from "./posted-tracking.ts";
export { runTrackingSync } from "./sync/tracking-sync.ts";
export { pushOrderTracking } from "./sync/order-push.ts";

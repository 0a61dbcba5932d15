import { trackingOrderPushJob, trackingSchedule, trackingSyncJob } from "@mw/domains/tracking";
import { handle } from "../../runtime/processor.ts";
import { trackingOrderPush } from "./tracking-order-push.ts";
import { trackingSync } from "./tracking-sync.ts";

// Per-site schedulers follow the sites table: back after a Redis loss, gone for sites changed while no API could update them.
export const trackingHandlers = [handle(trackingSyncJob, trackingSync, { reconcileSchedules: trackingSchedule.reconcile }), handle(trackingOrderPushJob, trackingOrderPush)];

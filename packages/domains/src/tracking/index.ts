export * from "./manual-sync.ts";
export * from "./schedule.ts";
export * from "./shipment-records.ts";
export * from "./sync-failures.ts";
export * from "./jobs.ts";
export * from "./posted-tracking.ts";
export * from "./sync/tracking-sync.ts";
export * from "./sync/order-push.ts";

export * from "./store.ts";
export * from "./submission.ts";
export * from "./jobs.ts";
export * from "./import-schedule.ts";
export * from "./storefront-orders.ts";
export * from "./order-volume.ts";
export * from "./order-overview.ts";

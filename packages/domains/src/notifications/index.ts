export * from "./jobs.ts";
export * from "./staff-notifications.ts";
export * from "./stream-slots.ts";
export * from "./operator-alerts.ts";
export * from "./delivery-failures.ts";

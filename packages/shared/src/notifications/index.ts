export * from "./jobs.ts";
export * from "./staff-notifications.ts";
export * from "./stream-slots.ts";

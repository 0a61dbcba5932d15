export * from "./jobs.ts";
export * from "./staff-notifications.ts";

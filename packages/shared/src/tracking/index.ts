export * from "./schedule.ts";
export * from "./jobs.ts";
export * from "./posted-tracking.ts";

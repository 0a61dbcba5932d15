export * from "./schedule.ts";
export * from "./jobs.ts";

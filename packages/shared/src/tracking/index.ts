export * from "./schedule.ts";

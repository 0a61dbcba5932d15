export * from "./jobs.ts";

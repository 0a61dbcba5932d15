export * from "./deliveries.ts";
export * from "./jobs.ts";

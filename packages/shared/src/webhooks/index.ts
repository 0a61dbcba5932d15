export * from "./deliveries.ts";
export * from "./jobs.ts";
export * from "./acquirer-outcomes.ts";

export * from "./acquirer-events.ts";
export * from "./deliveries.ts";
export * from "./jobs.ts";
export * from "./acquirer-outcomes.ts";
export * from "./inbox.ts";
export * from "./stored-events.ts";
export * from "./acquirer-list.ts";
export * from "./acquirer-trends.ts";

export * from "./jobs.ts";
export * from "./reads.ts";
export * from "./signals.ts";
export * from "./urgency-queue.ts";
export * from "./changes.ts";
export * from "./ticket-lookup.ts";

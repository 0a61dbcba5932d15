export * from "./details.ts";
export * from "./event-id.ts";
export * from "./matching.ts";
export * from "./merchants.ts";
export * from "./outbox.ts";
export * from "./outcomes.ts";
export * from "./receiver.ts";
export * from "./jobs.ts";

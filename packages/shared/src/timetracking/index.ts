export * from "./budget.ts";
export * from "./connections.ts";
export * from "./import.ts";
export * from "./jobs.ts";
export * from "./locks.ts";
export * from "./projects.ts";
export * from "./settings.ts";
export * from "./timers.ts";

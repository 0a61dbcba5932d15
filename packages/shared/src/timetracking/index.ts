export * from "./connections.ts";
export * from "./jobs.ts";
export * from "./projects.ts";
export * from "./settings.ts";
export * from "./timers.ts";

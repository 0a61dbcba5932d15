export * from "./connections.ts";
export * from "./settings.ts";
export * from "./timers.ts";

export * from "./connections.ts";
export * from "./settings.ts";

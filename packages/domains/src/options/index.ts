export * from "./definitions.ts";
export * from "./store.ts";

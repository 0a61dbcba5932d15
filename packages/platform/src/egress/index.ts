export * from "./addresses.ts";
export * from "./guard.ts";
export * from "./proxy.ts";

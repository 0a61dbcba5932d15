export * from "./address-allow.ts";
export * from "./config.ts";
export * from "./queue-names.ts";
export * from "./redis-url.ts";
export * from "./trust-proxy.ts";

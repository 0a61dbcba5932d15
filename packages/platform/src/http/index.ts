export * from "./http.ts";
export * from "./rate-limit.ts";

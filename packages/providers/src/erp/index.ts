export * from "./client.ts";
export * from "./types.ts";
export * from "./token.ts";

export * from "./answer.ts";
export * from "./client.ts";
export * from "./types.ts";

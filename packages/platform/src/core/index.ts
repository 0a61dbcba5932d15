export * from "./batcher.ts";
export * from "./collections.ts";
export * from "./errors.ts";
export * from "./last-used.ts";
export * from "./time.ts";
export * from "./version.ts";

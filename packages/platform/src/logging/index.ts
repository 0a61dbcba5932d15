export * from "./logger.ts";
export * from "./log-format.ts";
export * from "./redact.ts";
export * from "./rotating-file.ts";

export * from "./levels.ts";
export * from "./rules.ts";
export * from "./text.ts";
export * from "./model.ts";
export * from "./terms.ts";

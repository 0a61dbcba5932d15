export * from "./api-keys.ts";
export * from "./serial-numbers.ts";

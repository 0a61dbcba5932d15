export * from "./text.ts";
export * from "./csv.ts";
export * from "./html.ts";
export * from "./json-depth.ts";

export * from "./markup.ts";
export * from "./reviews.ts";

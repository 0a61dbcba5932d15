export * from "./store.ts";
export * from "./submission.ts";

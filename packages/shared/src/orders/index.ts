export * from "./store.ts";
export * from "./submission.ts";
export * from "./jobs.ts";

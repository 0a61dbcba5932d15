export * from "./failures.ts";
export * from "./job-logs.ts";
export * from "./job-ref.ts";
export * from "./jobs.ts";
export * from "./names.ts";
export * from "./options.ts";
export * from "./queues.ts";
export * from "./run-and-wait.ts";

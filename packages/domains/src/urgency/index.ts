export * from "./alerts.ts";
export * from "./analysis.ts";
export * from "./critical-alert.ts";
export * from "./jobs.ts";
export * from "./queue.ts";
export * from "./reads.ts";
export * from "./signal-intake.ts";
export * from "./sweep.ts";

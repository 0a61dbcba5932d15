export * from "./period.ts";
export * from "./request.ts";
export * from "./report-rows.ts";
export * from "./tables.ts";
export type { Report } from "@mw/platform/prisma";
export * from "./jobs.ts";
export * from "./dashboard-summary.ts";

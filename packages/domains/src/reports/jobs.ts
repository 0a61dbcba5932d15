import { z } from "zod";
import { defineJob, jobId } from "@mw/platform/queues";
import { REPORT_TYPES, type ReportType } from "./period.ts";

/** One report run: the row it fills; `description` is the report key (e.g. `order-intake-daily:2026-11-20`), shown in Bull Board. */
const reportRun = z.object({ report_id: z.number().int().positive(), description: z.string().min(1).max(191) });

/** Report jobs are named after their type, so Bull Board lists them by report. */
export const reportJobs = Object.fromEntries(REPORT_TYPES.map((type) => [type, defineJob({ queue: "reports", name: type, payload: reportRun })])) as Record<
  ReportType,
  ReturnType<typeof defineJob<typeof reportRun>>
>;

/** Each run of a report row is its own job. */
export const reportJobId = (reportId: number, at: number) => jobId("report", reportId, at);

/** Daily, once the day is complete: every report for the day before (UTC). */
export const reportsDailyJob = defineJob({ queue: "reports", name: "reports-daily", payload: z.object({}), schedule: { pattern: "30 0 * * *" } });

/** Daily (RETENTION_SCHEDULE): report runs and their CSV files past their retention. */
export const reportsRetentionJob = defineJob({ queue: "retention", name: "reports-retention", payload: z.object({}), schedule: { setting: "RETENTION_SCHEDULE" } });

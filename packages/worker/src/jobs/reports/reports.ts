import type { reportJobs, reportsDailyJob } from "@mw/domains/reports";
import { AppError, formatDay, missingRow, type PayloadOf } from "@mw/platform";
import {
  DAILY_REPORT_TYPES,
  findReport,
  REPORT_BUILDERS,
  REPORT_TYPES,
  reportCompleted,
  reportFailed,
  reportPeriod,
  reportRunning,
  reportStorageKey,
  requestReport,
  type ReportType,
} from "@mw/domains/reports";
import type { Job } from "bullmq";
import { stringify } from "csv-stringify/sync";
import { endsJob } from "../../runtime/attempts.ts";
import type { JobContext } from "../../runtime/processor.ts";

const DAY_MS = 86_400_000;

/**
 * Builds one report's CSV (header row first) into storage and records it on
 * the report row. Safe to run again: the same period gives the same object
 * key and the same row, both overwritten.
 */
export async function runReport(job: Job, payload: PayloadOf<(typeof reportJobs)[ReportType]>, ctx: Pick<JobContext, "prisma" | "replica" | "storage" | "config" | "log" | "progress">) {
  const report = await findReport(ctx, payload.report_id);
  if (!report) throw missingRow(`report ${payload.report_id}`, ctx.config, "report_not_found");
  const type = report.type as ReportType;
  if (type !== job.name || !REPORT_TYPES.includes(type)) throw AppError.permanent(`report ${report.id} is a ${report.type} report, not ${job.name}`, "report_mismatch");
  const period = reportPeriod.parse(report.params);
  const log = ctx.log.child({ report_id: report.id, report_key: report.report_key });
  await reportRunning(ctx, report.id, job.id);
  try {
    await ctx.progress(0, 3, "querying");
    const table = await REPORT_BUILDERS[type](ctx, period);
    await ctx.progress(1, 3, `writing ${table.rows.length} rows`);
    const csv = stringify(table.rows, { header: true, columns: table.columns });
    const key = reportStorageKey(type, period);
    await ctx.storage.put(key, csv, "text/csv; charset=utf-8");
    await ctx.progress(2, 3, "stored");
    await reportCompleted(ctx, report.id, { rows: table.rows.length, storageKey: key });
    await ctx.progress(3, 3, "done");
    log.info("report stored", { rows: table.rows.length, storage_key: key });
    return { report_id: report.id, key: report.report_key, rows: table.rows.length, storage_key: key };
  } catch (error) {
    // A retry will come: the row says so. The last word is `failed` with the reason.
    await reportFailed(ctx, report.id, { error: (error as Error).message, final: endsJob(job, error) }).catch((update: unknown) => log.error("could not record the report failure", { error: (update as Error).message }));
    throw error;
  }
}

/** Scheduled daily: every report for the UTC day before. */
export async function reportsDaily(_job: Job, _payload: PayloadOf<typeof reportsDailyJob>, ctx: Pick<JobContext, "prisma" | "queues" | "log">) {
  const day = formatDay(new Date(Date.now() - DAY_MS));
  const queued = [];
  for (const type of DAILY_REPORT_TYPES) {
    const { report, jobId } = await requestReport(ctx, type, { from: day, to: day });
    queued.push({ report_id: report.id, key: report.report_key, job_id: jobId });
  }
  ctx.log.info("daily reports queued", { day, reports: queued.length });
  return { day, queued };
}

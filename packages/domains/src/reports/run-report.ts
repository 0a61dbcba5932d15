import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { AppError, formatDay } from "@mw/platform/core";
import { missingRow } from "@mw/platform/database";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { csvChunks } from "./csv-chunks.ts";
import { DAILY_REPORT_TYPES, REPORT_TYPES, reportPeriod, reportStorageKey, type ReportType } from "./period.ts";
import { findReport, reportCompleted, reportFailed, reportRunning } from "./report-rows.ts";
import { requestReport } from "./request.ts";
import { REPORT_BUILDERS, type ReportTable } from "./tables.ts";

const DAY_MS = 86_400_000;

/** The job that runs a report: its name (the report type it was queued as) and id, and whether a failure ends it (the worker knows). */
export interface ReportRun {
  name: string;
  id: string | undefined;
  ends(error: unknown): boolean;
}

/**
 * Writes a report's CSV (header row first) to `file` as its batches come, the
 * next query waiting while the file falls behind, so a year of rows is never
 * held at once; answers how many rows it wrote.
 */
async function writeCsv(table: ReportTable, file: string): Promise<number> {
  let rows = 0;
  async function* counted() {
    for await (const batch of table.batches) {
      rows += batch.length;
      yield batch;
    }
  }
  await pipeline(csvChunks(table.columns, counted()), createWriteStream(file));
  return rows;
}

/**
 * Builds one report's CSV (header row first) into storage, through a
 * temporary file, and records it on the report row. Safe to run again: the
 * same period gives the same object key and the same row, both overwritten.
 */
export async function runReport(deps: Pick<Connections, "prisma" | "replica" | "storage" | "config"> & Pick<JobRun, "log" | "progress">, run: ReportRun, reportId: number) {
  const report = await findReport(deps, reportId);
  if (!report) throw missingRow(`report ${reportId}`, deps.config, "report_not_found");
  const type = report.type as ReportType;
  if (type !== run.name || !REPORT_TYPES.includes(type)) throw AppError.permanent(`report ${report.id} is a ${report.type} report, not ${run.name}`, "report_mismatch");
  const period = reportPeriod.parse(report.params);
  const log = deps.log.child({ report_id: report.id, report_key: report.report_key });
  await reportRunning(deps, report.id, run.id);
  const dir = await mkdtemp(path.join(tmpdir(), "mw-report-"));
  try {
    await deps.progress(0, 3, "querying");
    const table = await REPORT_BUILDERS[type](deps, period);
    await deps.progress(1, 3, "writing rows");
    const file = path.join(dir, "report.csv");
    const rows = await writeCsv(table, file);
    const key = reportStorageKey(type, period);
    await deps.storage.putFile(key, file, "text/csv; charset=utf-8");
    await deps.progress(2, 3, `stored ${rows} rows`);
    await reportCompleted(deps, report.id, { rows, storageKey: key });
    await deps.progress(3, 3, "done");
    log.info("report stored", { rows, storage_key: key });
    return { report_id: report.id, key: report.report_key, rows, storage_key: key };
  } catch (error) {
    // A retry will come: the row says so. The last word is `failed` with the reason.
    await reportFailed(deps, report.id, { error: (error as Error).message, final: run.ends(error) }).catch((update: unknown) => log.error("could not record the report failure", { error: (update as Error).message }));
    throw error;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Scheduled daily: every report for the UTC day before. */
export async function queueDailyReports(deps: Pick<Connections, "prisma" | "queues"> & Pick<JobRun, "log">) {
  const day = formatDay(new Date(Date.now() - DAY_MS));
  const queued = [];
  for (const type of DAILY_REPORT_TYPES) {
    const { report, jobId } = await requestReport(deps, type, { from: day, to: day });
    queued.push({ report_id: report.id, key: report.report_key, job_id: jobId });
  }
  deps.log.info("daily reports queued", { day, reports: queued.length });
  return { day, queued };
}

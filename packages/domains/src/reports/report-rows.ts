import { errors } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";
import type { Report } from "@mw/platform/prisma";

type Db = Pick<Connections, "prisma">;

export const REPORT_STATUSES = ["queued", "running", "completed", "failed"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** The report, or null when there is none with that id. */
export function findReport(deps: Db, id: number): Promise<Report | null> {
  return deps.prisma.report.findUnique({ where: { id } });
}

/** The report; 404 "Report not found." when there is none. */
export async function requireReport(deps: Db, id: number): Promise<Report> {
  const report = await findReport(deps, id);
  if (!report) throw errors.notFound("Report not found.");
  return report;
}

/** One page of reports, newest first, of one type and status or all. */
export async function listReports(deps: Db, filter: { type?: string; status?: ReportStatus }, window: { skip: number; take: number }) {
  const where = { type: filter.type, status: filter.status };
  const [total, rows] = await Promise.all([
    deps.prisma.report.count({ where }),
    deps.prisma.report.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], ...window }),
  ]);
  return { total, rows };
}

/** A run of the report's job has started; what an earlier run left (end, error) is cleared. */
export async function reportRunning(deps: Db, id: number, jobId: string | undefined): Promise<void> {
  await deps.prisma.report.update({ where: { id }, data: { status: "running", started_at: new Date(), finished_at: null, job_id: jobId ?? null, error: null } });
}

/** The report's CSV is in storage under `storageKey`. */
export async function reportCompleted(deps: Db, id: number, result: { rows: number; storageKey: string }): Promise<void> {
  await deps.prisma.report.update({ where: { id }, data: { status: "completed", row_count: result.rows, storage_key: result.storageKey, finished_at: new Date() } });
}

/** A run failed: `failed` with the reason when it was the last attempt, else `queued` again (a retry will come). */
export async function reportFailed(deps: Db, id: number, failure: { error: string; final: boolean }): Promise<void> {
  await deps.prisma.report.update({
    where: { id },
    data: { status: failure.final ? "failed" : "queued", error: failure.error, finished_at: failure.final ? new Date() : null },
  });
}

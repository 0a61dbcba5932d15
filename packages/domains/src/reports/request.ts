import { isUniqueViolation } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";
import { reportJobId, reportJobs } from "./jobs.ts";
import { reportKey, type ReportPeriod, type ReportType } from "./period.ts";

/** States in which a report's job will still run: asking again then changes nothing. */
const PENDING_STATES = new Set(["waiting", "active", "delayed", "prioritized", "waiting-children"]);

/**
 * Queues a report for a period: one row per type and period (asking again
 * reruns it into the same row and the same stored file), and a job in the
 * reports queue named after the type, whose `description` is the report key.
 * A report whose job has not run yet is not queued twice.
 */
export async function requestReport(deps: Pick<Connections, "prisma" | "queues">, type: ReportType, period: ReportPeriod) {
  const { prisma, queues } = deps;
  const key = reportKey(type, period);
  const find = () => prisma.report.findUnique({ where: { report_key: key } });
  let report = await find();
  if (!report) {
    try {
      report = await prisma.report.create({ data: { type, report_key: key, params: { ...period }, status: "queued" } });
    } catch (error) {
      // Asked twice at once: the other request created the row.
      if (!isUniqueViolation(error)) throw error;
      report = (await find())!;
    }
  }
  if (report.job_id) {
    const pending = await queues.get(reportJobs[type].queue).getJob(report.job_id);
    if (pending && PENDING_STATES.has(await pending.getState())) {
      return { report, jobId: report.job_id, queued: false, reason: `A run of this report is already waiting or running (job ${report.job_id}): nothing new was queued.` };
    }
  }
  const id = reportJobId(report.id, Date.now());
  // The row first: a job that starts at once must find itself recorded, not be overwritten.
  report = await prisma.report.update({ where: { id: report.id }, data: { status: "queued", job_id: id, error: null } });
  await queues.add(reportJobs[type], { report_id: report.id, description: key }, { jobId: id });
  return { report, jobId: id, queued: true, reason: null };
}

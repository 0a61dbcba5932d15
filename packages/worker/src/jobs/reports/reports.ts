import { queueDailyReports, runReport, type reportJobs, type ReportType, type reportsDailyJob } from "@mw/domains/reports";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import { endsJob } from "../../runtime/attempts.ts";
import type { JobContext } from "../../runtime/processor.ts";

export async function reportRun(job: Job, payload: PayloadOf<(typeof reportJobs)[ReportType]>, ctx: Pick<JobContext, "prisma" | "replica" | "storage" | "config" | "log" | "progress">) {
  return runReport(ctx, { name: job.name, id: job.id, ends: (error) => endsJob(job, error) }, payload.report_id);
}

export async function reportsDaily(_job: Job, _payload: PayloadOf<typeof reportsDailyJob>, ctx: Pick<JobContext, "prisma" | "queues" | "log">) {
  return queueDailyReports(ctx);
}

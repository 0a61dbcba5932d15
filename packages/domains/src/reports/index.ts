export { REPORT_TYPES, reportFileName, reportPeriod, reportRequest, type ReportType } from "./period.ts";
export { requestReport } from "./request.ts";
export { REPORT_STATUSES, listReports, requireReport, type ReportStatus } from "./report-rows.ts";
export { queueDailyReports, runReport, type ReportRun } from "./run-report.ts";
export type { Report } from "@mw/platform/prisma";
export { reportJobs, reportsDailyJob, reportsRetentionJob } from "./jobs.ts";
export { purgeReports } from "./retention.ts";
export { requestDashboardSummary } from "./dashboard-summary.ts";
export { csvChunks, type CsvRow } from "./csv-chunks.ts";

export { DAILY_REPORT_TYPES, REPORT_TYPES, reportFileName, reportPeriod, reportRequest, reportStorageKey, type ReportType } from "./period.ts";
export { requestReport } from "./request.ts";
export { REPORT_STATUSES, findReport, listReports, reportCompleted, reportFailed, reportRunning, requireReport, type ReportStatus } from "./report-rows.ts";
export { REPORT_BUILDERS } from "./tables.ts";
export type { Report } from "@mw/platform/prisma";
export { reportJobs, reportsDailyJob } from "./jobs.ts";
export { requestDashboardSummary } from "./dashboard-summary.ts";

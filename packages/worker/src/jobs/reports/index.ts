import { reportJobs, reportsDailyJob, reportsRetentionJob } from "@mw/domains/reports";
import { handle } from "../../runtime/processor.ts";
import { reportRun, reportsDaily } from "./reports.ts";
import { reportsRetention } from "./retention.ts";

export const reportHandlers = [...Object.values(reportJobs).map((job) => handle(job, reportRun)), handle(reportsDailyJob, reportsDaily), handle(reportsRetentionJob, reportsRetention)];

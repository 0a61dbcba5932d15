import { reportJobs, reportsDailyJob } from "@mw/domains/reports";
import { handle } from "../../runtime/processor.ts";
import { reportRun, reportsDaily } from "./reports.ts";

export const reportHandlers = [...Object.values(reportJobs).map((job) => handle(job, reportRun)), handle(reportsDailyJob, reportsDaily)];

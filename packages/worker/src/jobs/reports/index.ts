import { reportJobs, reportsDailyJob } from "@mw/domains/reports";
import { handle } from "../../runtime/processor.ts";
import { reportsDaily, runReport } from "./reports.ts";

export const reportHandlers = [...Object.values(reportJobs).map((job) => handle(job, runReport)), handle(reportsDailyJob, reportsDaily)];

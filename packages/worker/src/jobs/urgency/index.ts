import { criticalAlertJob, urgencyAnalysisJob, urgencyRetentionJob, urgencySweepJob } from "@mw/domains/urgency";
import { handle } from "../../runtime/processor.ts";
import { criticalAlert } from "./critical-alert.ts";
import { urgencyAnalysis } from "./urgency-analysis.ts";
import { urgencyRetention } from "./retention.ts";
import { urgencySweep } from "./urgency-sweep.ts";

export const urgencyHandlers = [handle(urgencyAnalysisJob, urgencyAnalysis), handle(urgencySweepJob, urgencySweep), handle(criticalAlertJob, criticalAlert), handle(urgencyRetentionJob, urgencyRetention)];

import { budgetLockNoticeJob, milestoneChecksJob, milestonesJob, noteOptimizeJob, projectCreateJob, timeImportJob, timerStopOnReplyJob, timeSyncJob } from "@mw/domains/timetracking";
import { handle } from "../../runtime/processor.ts";
import { budgetLockNotice, milestoneChecks, milestones, noteOptimize, projectCreate, timeImport, timerStopOnReply, timeSync } from "./timetracking.ts";

export const timeTrackingHandlers = [
  handle(timerStopOnReplyJob, timerStopOnReply),
  handle(projectCreateJob, projectCreate),
  handle(timeImportJob, timeImport),
  handle(budgetLockNoticeJob, budgetLockNotice),
  handle(timeSyncJob, timeSync),
  handle(milestonesJob, milestones),
  handle(milestoneChecksJob, milestoneChecks),
  handle(noteOptimizeJob, noteOptimize),
];

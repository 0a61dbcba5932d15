import { budgetLockNoticeJob, projectCreateJob, timeImportJob, timerStopOnReplyJob } from "@mw/shared/timetracking";
import { handle } from "../../runtime/processor.ts";
import { budgetLockNotice, projectCreate, timeImport, timerStopOnReply } from "./timetracking.ts";

export const timeTrackingHandlers = [
  handle(timerStopOnReplyJob, timerStopOnReply),
  handle(projectCreateJob, projectCreate),
  handle(timeImportJob, timeImport),
  handle(budgetLockNoticeJob, budgetLockNotice),
];

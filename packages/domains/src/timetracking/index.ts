export { completeConnection, connectUrl, connectionStatus, disconnectStaff } from "./connections.ts";
export { queueTimeFollowUps } from "./follow-ups.ts";
export { importTime } from "./import.ts";
export { budgetLockNoticeJob, budgetLockNoticeJobId, milestoneChecksJob, milestonesJob, noteOptimizeJob, noteOptimizeJobId, projectCreateJob, projectCreateJobId, timeImportJob, timeSyncJob, timerStopOnReplyJob } from "./jobs.ts";
export { sendBudgetLockNotice } from "./lock-notice.ts";
export { timeTimeline, unlockTicket } from "./locks.ts";
export { requireTimeTracking, type TimeDeps } from "./settings.ts";
export { noteWantsOptimising, projectTasks, runningTimer, startTimer, stopTimer, submitTime, updateTimerNotes } from "./timers.ts";
export { runMilestoneChecks, runMilestones, runNoteOptimize, runProjectCreate, runTimeImport, runTimerStopOnReply, runTimeSync } from "./job-runs.ts";

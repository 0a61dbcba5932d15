import type { PayloadOf } from "@mw/platform";
import {
  runMilestoneChecks,
  runMilestones,
  runNoteOptimize,
  runProjectCreate,
  runTimeImport,
  runTimerStopOnReply,
  runTimeSync,
  sendBudgetLockNotice,
  type budgetLockNoticeJob,
  type milestoneChecksJob,
  type milestonesJob,
  type noteOptimizeJob,
  type projectCreateJob,
  type timeImportJob,
  type timerStopOnReplyJob,
  type timeSyncJob,
} from "@mw/domains/timetracking";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";
import { processServices } from "../../runtime/services.ts";

export async function timerStopOnReply(_job: Job, payload: PayloadOf<typeof timerStopOnReplyJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log" | "queues">) {
  return runTimerStopOnReply({ ...ctx, options: processServices(ctx).options }, payload);
}

export async function projectCreate(_job: Job, payload: PayloadOf<typeof projectCreateJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "queues" | "logger" | "log">) {
  return runProjectCreate({ ...ctx, options: processServices(ctx).options }, payload.ticket_id);
}

export async function timeImport(_job: Job, _payload: PayloadOf<typeof timeImportJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log" | "queues" | "progress">) {
  return runTimeImport({ ...ctx, options: processServices(ctx).options });
}

/** Spec 2, 6: the over-budget lock notifies the ticket's project manager, by e-mail and in the browser, once per lock. */
export async function budgetLockNotice(_job: Job, payload: PayloadOf<typeof budgetLockNoticeJob>, ctx: Pick<JobContext, "prisma" | "queues" | "redis" | "config" | "log" | "delay">) {
  return sendBudgetLockNotice(ctx, payload.event_id);
}

/** A run from the job scheduler (repeatJobKey) is the platform's own; any other was asked for by a caller. */
export async function timeSync(job: Job, _payload: PayloadOf<typeof timeSyncJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "queues" | "logger" | "log">) {
  return runTimeSync({ ...ctx, options: processServices(ctx).options }, Boolean(job.repeatJobKey));
}

export async function milestones(_job: Job, payload: PayloadOf<typeof milestonesJob>, ctx: Pick<JobContext, "prisma" | "queues" | "config">) {
  return runMilestones(ctx, payload.scope);
}

export async function milestoneChecks(_job: Job, _payload: PayloadOf<typeof milestoneChecksJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log" | "queues">) {
  return runMilestoneChecks({ ...ctx, options: processServices(ctx).options });
}

export async function noteOptimize(_job: Job, payload: PayloadOf<typeof noteOptimizeJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "queues" | "logger" | "log">) {
  return runNoteOptimize({ ...ctx, ...processServices(ctx) }, payload.entry_id);
}

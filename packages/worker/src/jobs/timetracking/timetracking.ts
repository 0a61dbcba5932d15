import { AppError, type PayloadOf } from "@mw/platform";
import { chatMessageJob, raiseOperatorAlert } from "@mw/domains/notifications";
import {
  budgetLockNoticeJob,
  budgetLockNoticeJobId,
  createProjectForTicket,
  importTime,
  noteOptimizeJob,
  noteOptimizeJobId,
  noteWantsOptimising,
  optimizeLoggedNote,
  projectMilestones,
  sendBudgetLockNotice,
  stopTimerForReply,
  syncTime,
  taskMilestones,
  TIME_TRACKING_DISABLED,
  type milestoneChecksJob,
  type milestonesJob,
  type timeSyncJob,
  type projectCreateJob,
  type TimeDeps,
  type timeImportJob,
  type timerStopOnReplyJob,
} from "@mw/domains/timetracking";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";
import { processServices } from "../../runtime/services.ts";

/** Design 10.8: with time_api.enabled off, time jobs do nothing but say so. */
async function timeDeps(ctx: Pick<JobContext, "config" | "prisma" | "redis" | "queues" | "logger" | "log">, what: string): Promise<TimeDeps | null> {
  const { options } = processServices(ctx);
  if (await options.get("time_api.enabled")) return { ...ctx, options };
  ctx.log.info(`${what} skipped: time tracking is disabled`);
  return null;
}

export async function timerStopOnReply(_job: Job, payload: PayloadOf<typeof timerStopOnReplyJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log" | "queues">) {
  const deps = await timeDeps(ctx, "timer stop on reply");
  if (!deps) return { skipped: "time_tracking_disabled" };
  const result = await stopTimerForReply(deps, payload);
  if (result.stopped) {
    ctx.log.info("running timer stopped by a reply", { ticket_id: payload.ticket_id, staff_id: payload.staff_id, entry_id: result.entry_id });
    if (await noteWantsOptimising(deps, { notes: result.notes })) await ctx.queues.add(noteOptimizeJob, { entry_id: result.entry_id }, { jobId: noteOptimizeJobId(result.entry_id) });
  }
  return result;
}

export async function projectCreate(_job: Job, payload: PayloadOf<typeof projectCreateJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "queues" | "logger" | "log">) {
  const deps = await timeDeps(ctx, "project creation");
  if (!deps) return { skipped: "time_tracking_disabled" };
  const result = await createProjectForTicket(deps, payload.ticket_id);
  if ("project_id" in result && !("skipped" in result)) ctx.log.info("time-tracking project created for the ticket", { ticket_id: payload.ticket_id, ...result });
  return result;
}

/** Spec 2, 4.5 rule 5, every 15 minutes: the import, then one notice job per new lock. */
export async function timeImport(_job: Job, _payload: PayloadOf<typeof timeImportJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log" | "queues" | "progress">) {
  const deps = await timeDeps(ctx, "time import");
  if (!deps) return { skipped: "time_tracking_disabled" };
  const result = await importTime(deps, (done, total) => ctx.progress(done, total, "projects"));
  for (const eventId of result.lock_events) await ctx.queues.add(budgetLockNoticeJob, { event_id: eventId }, { jobId: budgetLockNoticeJobId(eventId) });
  ctx.log.info("time imported", { ...result });
  return result;
}

/** Spec 2, 6: the over-budget lock notifies the ticket's project manager, by e-mail and in the browser, once per lock. */
export async function budgetLockNotice(_job: Job, payload: PayloadOf<typeof budgetLockNoticeJob>, ctx: Pick<JobContext, "prisma" | "queues" | "config" | "log">) {
  return sendBudgetLockNotice(ctx, payload.event_id);
}

/**
 * Spec 2, 4.2 `/time_sync`: the counts of what was mirrored. The endpoint's
 * run fails while time tracking is off (its caller asked for a sync); the
 * platform's own scheduled run says so and does nothing.
 */
export async function timeSync(job: Job, _payload: PayloadOf<typeof timeSyncJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "queues" | "logger" | "log">) {
  const deps = await timeDeps(ctx, "time sync");
  if (!deps && job.repeatJobKey) return { skipped: "time_tracking_disabled" };
  if (!deps) throw AppError.permanent(TIME_TRACKING_DISABLED, "sync_error");
  const counts = await syncTime({ ...deps, delayMs: ctx.config.TIME_SYNC_DELAY_MS });
  ctx.log.info("time synced", { ...counts });
  return counts;
}

/** Spec 2, 4.2 `/update_milestones` and `/update_milestones_tasks`: one scope's alerts. */
export async function milestones(_job: Job, payload: PayloadOf<typeof milestonesJob>, ctx: Pick<JobContext, "prisma" | "queues" | "config">) {
  return alertMilestones(ctx, payload.scope === "projects" ? await projectMilestones(ctx) : await taskMilestones(ctx));
}

/** The platform's own run of both checks (MILESTONES_SCHEDULE), while time tracking is on. */
export async function milestoneChecks(_job: Job, _payload: PayloadOf<typeof milestoneChecksJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "logger" | "log" | "queues">) {
  if (!(await timeDeps(ctx, "milestone checks"))) return { skipped: "time_tracking_disabled" };
  const [projects, tasks] = [await alertMilestones(ctx, await projectMilestones(ctx)), await alertMilestones(ctx, await taskMilestones(ctx))];
  ctx.log.info("milestones checked", { project_alerts: projects.alerts_sent, task_alerts: tasks.alerts_sent });
  return { projects, tasks };
}

/**
 * Milestone alerts to the chat webhook, each threshold once (design 10.4);
 * `alerts_sent` counts them. Without CHAT_WEBHOOK_URL they go to the
 * operators' e-mail, saying so, rather than nowhere.
 */
async function alertMilestones(ctx: Pick<JobContext, "queues" | "config">, alerts: Awaited<ReturnType<typeof projectMilestones>>) {
  for (const alert of alerts) {
    const key = `milestone.${alert.project_id}.${alert.task_id}.${alert.threshold}`;
    if (ctx.config.CHAT_WEBHOOK_URL) await ctx.queues.add(chatMessageJob, { text: alert.text }, { jobId: key });
    else await raiseOperatorAlert(ctx, { key, subject: `Budget milestone: ${alert.threshold} % reached`, text: alert.text, reason: "milestone alerts go to the chat webhook, and CHAT_WEBHOOK_URL is unset" });
  }
  return { alerts_sent: alerts.length, alerts: alerts.map(({ project_id, task_id, threshold }) => ({ project_id, task_id, threshold })) };
}

/** Design 10.8: the AI's description replaces a note a person wrote. */
export async function noteOptimize(_job: Job, payload: PayloadOf<typeof noteOptimizeJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "queues" | "logger" | "log">) {
  const deps = await timeDeps(ctx, "note optimisation");
  if (!deps) return { skipped: "time_tracking_disabled" };
  const { ai } = processServices(ctx);
  return optimizeLoggedNote(deps, (text) => ai.optimizeNote(text), payload.entry_id);
}

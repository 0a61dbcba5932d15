import { AppError } from "@mw/platform/core";
import type { JobRun, PayloadOf } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import type { AiService } from "../ai/index.ts";
import { chatMessageJob, raiseOperatorAlert } from "../notifications/index.ts";
import type { OptionStore } from "../options/index.ts";
import { asPlatform } from "./connections.ts";
import { importTime } from "./import.ts";
import { budgetLockNoticeJob, budgetLockNoticeJobId, noteOptimizeJob, noteOptimizeJobId, type milestonesJob, type timerStopOnReplyJob } from "./jobs.ts";
import { projectMilestones, taskMilestones } from "./milestones.ts";
import { createProjectForTicket } from "./projects.ts";
import { TIME_TRACKING_DISABLED, type TimeDeps } from "./settings.ts";
import { syncTime } from "./sync.ts";
import { noteWantsOptimising, optimizeLoggedNote, stopTimerForReply } from "./timers.ts";

/** What the time-tracking jobs use: the process's connections and its option store (time_api.enabled and the rest). */
type TimeJobDeps = Pick<Connections, "config" | "prisma" | "redis" | "logger" | "queues"> & Pick<JobRun, "log"> & { options: OptionStore };

/** Design 10.8: with time_api.enabled off, time jobs do nothing but say so. */
async function timeDeps<D extends TimeJobDeps>(deps: D, what: string): Promise<(D & TimeDeps) | null> {
  if (await deps.options.get("time_api.enabled")) return deps;
  deps.log.info(`${what} skipped: time tracking is disabled`);
  return null;
}

export async function runTimerStopOnReply(deps: TimeJobDeps, payload: PayloadOf<typeof timerStopOnReplyJob>) {
  const time = await timeDeps(deps, "timer stop on reply");
  if (!time) return { skipped: "time_tracking_disabled" };
  const result = await stopTimerForReply(time, payload);
  if (result.stopped) {
    deps.log.info("running timer stopped by a reply", { ticket_id: payload.ticket_id, staff_id: payload.staff_id, entry_id: result.entry_id });
    if (await noteWantsOptimising(time, { notes: result.notes })) await deps.queues.add(noteOptimizeJob, { entry_id: result.entry_id }, { jobId: noteOptimizeJobId(result.entry_id) });
  }
  return result;
}

export async function runProjectCreate(deps: TimeJobDeps, ticketId: number) {
  const time = await timeDeps(deps, "project creation");
  if (!time) return { skipped: "time_tracking_disabled" };
  const result = await createProjectForTicket(time, ticketId);
  if ("project_id" in result && !("skipped" in result)) deps.log.info("time-tracking project created for the ticket", { ticket_id: ticketId, ...result });
  return result;
}

/** Spec 2, 4.5 rule 5, every 15 minutes: the import, then one notice job per new lock. */
export async function runTimeImport(deps: TimeJobDeps & Pick<JobRun, "progress">) {
  const time = await timeDeps(deps, "time import");
  if (!time) return { skipped: "time_tracking_disabled" };
  const result = await asPlatform(time, () => importTime(time, (done, total) => deps.progress(done, total, "projects")));
  for (const eventId of result.lock_events) await deps.queues.add(budgetLockNoticeJob, { event_id: eventId }, { jobId: budgetLockNoticeJobId(eventId) });
  deps.log.info("time imported", { ...result });
  return result;
}

/**
 * Spec 2, 4.2 `/time_sync`: the counts of what was mirrored. The endpoint's
 * run fails while time tracking is off (its caller asked for a sync); the
 * platform's own scheduled run says so and does nothing.
 */
export async function runTimeSync(deps: TimeJobDeps, scheduled: boolean) {
  const time = await timeDeps(deps, "time sync");
  if (!time && scheduled) return { skipped: "time_tracking_disabled" };
  if (!time) throw AppError.permanent(TIME_TRACKING_DISABLED, "sync_error");
  const counts = await asPlatform(time, () => syncTime({ ...time, delayMs: deps.config.TIME_SYNC_DELAY_MS }));
  deps.log.info("time synced", { ...counts });
  return counts;
}

/** Spec 2, 4.2 `/update_milestones` and `/update_milestones_tasks`: one scope's alerts. */
export async function runMilestones(deps: Pick<Connections, "prisma" | "queues" | "config">, scope: PayloadOf<typeof milestonesJob>["scope"]) {
  return alertMilestones(deps, scope === "projects" ? await projectMilestones(deps) : await taskMilestones(deps));
}

/** The platform's own run of both checks (MILESTONES_SCHEDULE), while time tracking is on. */
export async function runMilestoneChecks(deps: TimeJobDeps) {
  if (!(await timeDeps(deps, "milestone checks"))) return { skipped: "time_tracking_disabled" };
  const [projects, tasks] = [await alertMilestones(deps, await projectMilestones(deps)), await alertMilestones(deps, await taskMilestones(deps))];
  deps.log.info("milestones checked", { project_alerts: projects.alerts_sent, task_alerts: tasks.alerts_sent });
  return { projects, tasks };
}

/**
 * Milestone alerts to the chat webhook, each threshold once (design 10.4);
 * `alerts_sent` counts them. Without CHAT_WEBHOOK_URL they go to the
 * operators' e-mail, saying so, rather than nowhere; one the webhook never
 * takes is on the undelivered list under the milestone's key (sendChatMessage).
 */
async function alertMilestones(deps: Pick<Connections, "queues" | "config">, alerts: Awaited<ReturnType<typeof projectMilestones>>) {
  for (const alert of alerts) {
    const key = `milestone.${alert.project_id}.${alert.task_id}.${alert.threshold}`;
    const subject = `Budget milestone: ${alert.threshold} % reached`;
    if (deps.config.CHAT_WEBHOOK_URL) await deps.queues.add(chatMessageJob, { text: alert.text, key, subject }, { jobId: key });
    else await raiseOperatorAlert(deps, { key, subject, text: alert.text, reason: "milestone alerts go to the chat webhook, and CHAT_WEBHOOK_URL is unset" });
  }
  return { alerts_sent: alerts.length, alerts: alerts.map(({ project_id, task_id, threshold }) => ({ project_id, task_id, threshold })) };
}

/** Design 10.8: the AI's description replaces a note a person wrote. */
export async function runNoteOptimize(deps: TimeJobDeps & { ai: AiService }, entryId: number) {
  const time = await timeDeps(deps, "note optimisation");
  if (!time) return { skipped: "time_tracking_disabled" };
  return optimizeLoggedNote(time, (text) => deps.ai.optimizeNote(text), entryId);
}

import { z } from "zod";
import { defineJob, jobId } from "@mw/platform/queues";

/**
 * Issue 20 / spec 2, section 3: a staff reply or note ends that staff
 * member's running timer on the ticket (stopped, notes pushed, linked to the
 * entry, finalised). A job: it calls Harvest, which the signal's caller
 * does not wait for.
 */
export const timerStopOnReplyJob = defineJob({
  queue: "timetracking",
  name: "timer-stop-on-reply",
  payload: z.object({ ticket_id: z.number().int().positive(), staff_id: z.number().int().positive(), thread_entry_id: z.number().int().positive() }),
});

export const timerStopOnReplyJobId = (threadEntryId: number) => jobId("timer-stop-on-reply", threadEntryId);

/** Spec 2, 4.5 rule 4: a ticket assigned without a project gets one at Harvest. */
export const projectCreateJob = defineJob({ queue: "timetracking", name: "project-create", payload: z.object({ ticket_id: z.number().int().positive() }) });

export const projectCreateJobId = (ticketId: number) => jobId("project-create", ticketId);

/** Spec 2, 4.5 rule 5: pull the linked projects' entries, recompute hours and budgets, lock over-budget tickets. */
export const timeImportJob = defineJob({ queue: "timetracking", name: "time-import", payload: z.object({}), schedule: { every: 15 * 60_000 } });

/** One notice per lock (e-mail and browser notification to the project manager). */
export const budgetLockNoticeJob = defineJob({ queue: "timetracking", name: "budget-lock-notice", payload: z.object({ event_id: z.number().int().positive() }) });

export const budgetLockNoticeJobId = (eventId: number) => jobId("budget-lock-notice", eventId);

/** Spec 2, 4.2 `/time_sync`: Harvest into the mirror tables; also run by the platform itself on TIME_SYNC_SCHEDULE. */
export const timeSyncJob = defineJob({ queue: "timetracking", name: "time-sync", payload: z.object({}), schedule: { setting: "TIME_SYNC_SCHEDULE" } });

/** Spec 2, 4.2 `/update_milestones` and `/update_milestones_tasks`. */
export const milestonesJob = defineJob({ queue: "timetracking", name: "milestones", payload: z.object({ scope: z.enum(["projects", "tasks"]) }) });

/** Both milestone checks on the platform's own MILESTONES_SCHEDULE (after the hourly sync), without an outside cron. */
export const milestoneChecksJob = defineJob({ queue: "timetracking", name: "milestone-checks", payload: z.object({}), schedule: { setting: "MILESTONES_SCHEDULE" } });

/** Design 10.8: with `time_api.note_ai_enabled` on, a note submitted without the AI is optimised afterwards. */
export const noteOptimizeJob = defineJob({ queue: "timetracking", name: "note-optimize", payload: z.object({ entry_id: z.number().int().positive() }) });

export const noteOptimizeJobId = (entryId: number) => jobId("note-optimize", entryId);

import type { Response } from "express";
import { noteOptimizeJob, noteOptimizeJobId, noteWantsOptimising, projectTasks, requireTimeTracking, runningTimer, startTimer, stopTimer, submitTime, timeTimeline, unlockTicket, updateTimerNotes, type TimeDeps } from "@mw/domains/timetracking";
import { z } from "zod";
import { staffIdOf } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

const id = z.coerce.number().int().positive();
const notes = z.string().trim().max(2000);
const ref = z.object({ id: z.number(), name: z.string() });
const entry = z.object({ entry_id: z.number(), project_id: z.number(), task: ref, hours: z.number(), notes: z.string().nullable(), is_running: z.boolean(), spent_date: z.string() });
const ok = <S extends z.ZodType>(data: S) => z.object({ success: z.literal(true), data });

const startBody = z.object({ ticket_id: id, task_id: id.optional().describe("default: time_api.default_task_id"), notes: notes.optional() });
const entryExample = { entry_id: 88001, project_id: 4411, task: { id: 501, name: "Support" }, hours: 0, notes: null as string | null, is_running: true, spent_date: "2026-11-25" };

const submitBody = z.union([
  z.object({ ticket_id: id, entry_id: id.describe("the running timer to stop and finalise"), notes, ai_optimized: z.boolean().optional(), thread_entry_id: id.optional() }),
  z.object({ ticket_id: id, hours: z.number().positive().max(24), task_id: id.optional(), spent_date: z.iso.date().optional(), notes, ai_optimized: z.boolean().optional(), thread_entry_id: id.optional() }),
]);

/** Spec 2, 4.5: a staff member's timers and entries, with their own Harvest token (design 10.8). */
export function timerRoutes(api: ApiRouter, ctx: Pick<AppContext, "ai" | "config" | "options" | "prisma" | "queues" | "redis">): void {
  const deps: TimeDeps = ctx;
  const staff = async (res: Response) => {
    await requireTimeTracking(ctx.options);
    return staffIdOf(res);
  };

  api.route({
    method: "get",
    path: "/timetracking/tasks/:project_id",
    summary: "A project's active task assignments (read with the sync credentials)",
    tag: "timetracking",
    access: "staff_or_manage_options",
    params: z.object({ project_id: id }),
    responses: { 200: { description: "The tasks, and the default task", schema: ok(z.object({ tasks: z.array(z.object({ id: z.number(), name: z.string(), billable: z.boolean().nullable() })), default_task_id: z.number().nullable() })) } },
    example: { response: { success: true, data: { tasks: [{ id: 501, name: "Support", billable: true }, { id: 502, name: "Development", billable: true }], default_task_id: 501 } } },
    handler: async ({ params }, _req, res) => {
      await staff(res);
      return { success: true as const, data: await projectTasks(deps, params.project_id) };
    },
  });

  api.route({
    method: "post",
    path: "/timetracking/timer/start",
    summary: "Start a running timer on a ticket (a Harvest entry without hours); a timer already running there is answered instead",
    tag: "timetracking",
    access: "staff_or_manage_options",
    body: startBody,
    responses: { 200: { description: "The running entry; started is false when it was already running", schema: ok(entry.extend({ started: z.boolean() })) } },
    example: { request: { ticket_id: 123, task_id: 501 }, response: { success: true, data: { started: true, ...entryExample, hours: 0, notes: null, is_running: true } } },
    handler: async ({ body }, _req, res) => ({ success: true as const, data: await startTimer(deps, await staff(res), body) }),
  });

  api.route({
    method: "post",
    path: "/timetracking/timer/:entry_id/stop",
    summary: "Stop a running timer; the entry keeps the hours Harvest counted",
    tag: "timetracking",
    access: "staff_or_manage_options",
    params: z.object({ entry_id: id }),
    responses: { 200: { description: "The stopped entry", schema: ok(entry) } },
    example: { response: { success: true, data: { ...entryExample, hours: 0.75, is_running: false } } },
    handler: async ({ params }, _req, res) => ({ success: true as const, data: await stopTimer(deps, await staff(res), params.entry_id) }),
  });

  api.route({
    method: "get",
    path: "/timetracking/timer/:project_id",
    summary: "Whether the signed-in staff member has a timer running on the project",
    tag: "timetracking",
    access: "staff_or_manage_options",
    params: z.object({ project_id: id }),
    responses: { 200: { description: "running, and the entry when it is", schema: ok(entry.partial().extend({ running: z.boolean() })) } },
    example: { response: { success: true, data: { running: true, ...entryExample, hours: 0, is_running: true } } },
    handler: async ({ params }, _req, res) => ({ success: true as const, data: await runningTimer(deps, await staff(res), params.project_id) }),
  });

  api.route({
    method: "patch",
    path: "/timetracking/timer/:entry_id",
    summary: "Change a timer's notes",
    tag: "timetracking",
    access: "staff_or_manage_options",
    params: z.object({ entry_id: id }),
    body: z.object({ notes, ai_optimized: z.boolean().optional().describe("the notes were written by the AI") }),
    responses: { 200: { description: "The entry", schema: ok(entry) } },
    example: { request: { notes: "Fix checkout 500 error", ai_optimized: true }, response: { success: true, data: { ...entryExample, hours: 0, is_running: true, notes: "Fix checkout 500 error" } } },
    handler: async ({ params, body }, _req, res) => ({ success: true as const, data: await updateTimerNotes(deps, await staff(res), params.entry_id, body.notes, body.ai_optimized ?? false) }),
  });

  api.route({
    method: "post",
    path: "/timetracking/submit",
    summary: "Submit time with a reply or note: stop a running timer and push its notes, or log a manual entry with hours; either way finalised",
    tag: "timetracking",
    access: "staff_or_manage_options",
    body: submitBody,
    responses: { 200: { description: "The final entry", schema: ok(entry) } },
    example: {
      request: { ticket_id: 123, entry_id: 88001, notes: "Fix checkout 500 error", thread_entry_id: 992 },
      response: { success: true, data: { ...entryExample, hours: 0.75, notes: "Fix checkout 500 error", is_running: false } },
    },
    handler: async ({ body }, _req, res) => {
      const entry = await submitTime(deps, await staff(res), body);
      if (await noteWantsOptimising(ctx, body)) await ctx.queues.add(noteOptimizeJob, { entry_id: entry.entry_id }, { jobId: noteOptimizeJobId(entry.entry_id) });
      return { success: true as const, data: entry };
    },
  });

  api.route({
    method: "post",
    path: "/timetracking/unlock/:ticket_id",
    summary: "Unlock an over-budget ticket (its project manager only); the unlock holds until the budget changes or hours grow by another 10 %",
    tag: "timetracking",
    access: "staff_or_manage_options",
    params: z.object({ ticket_id: id }),
    responses: { 200: { description: "Unlocked", schema: ok(z.object({ ticket_id: z.number(), locked: z.literal(false) })) } },
    example: { response: { success: true, data: { ticket_id: 123, locked: false } } },
    handler: async ({ params }, _req, res) => ({ success: true as const, data: await unlockTicket(ctx, params.ticket_id, await staff(res)) }),
  });

  api.route({
    method: "get",
    path: "/timetracking/timeline/:ticket_id",
    summary: "A ticket's imported time entries and budget lock events, ordered by when they happened",
    tag: "timetracking",
    access: "staff_or_manage_options",
    params: z.object({ ticket_id: id }),
    responses: {
      200: {
        description: "Oldest first; entries by their spent date, lock events by their time; a lock's `notice` says per channel what its notice to the project manager did",
        schema: ok(z.object({ items: z.array(z.object({ type: z.enum(["entry", "locked", "unlocked"]), at: z.string() }).loose()) })),
      },
    },
    example: {
      response: {
        success: true,
        data: {
          items: [
            { type: "entry", at: "2026-11-24T00:00:00.000Z", entry_id: 88001, user_id: 1001, hours: 6.5, notes: "Checkout fix" },
            { type: "locked", at: "2026-11-25T09:15:02.113Z", staff_id: 5, hours_used: 13, budget: 10, notice: { browser: { status: "sent", sent_to: ["staff 5"], failed: {}, attempts: 1 }, "e-mail": { status: "sent", sent_to: ["pm@agency.example"], failed: {}, attempts: 1 } } },
            { type: "unlocked", at: "2026-11-25T10:02:40.551Z", staff_id: 5, hours_used: 13, budget: 10 },
          ],
        },
      },
    },
    handler: async ({ params }, _req, res) => {
      await staff(res);
      return { success: true as const, data: { items: await timeTimeline(ctx, params.ticket_id) } };
    },
  });

  api.route({
    method: "post",
    path: "/timetracking/optimize-note",
    summary: "Summarise a note into a time-entry description of 2 to 8 words (the AI when time_api.note_ai_enabled, else the rules)",
    tag: "timetracking",
    access: "staff_or_manage_options",
    body: z.object({ text: z.string().trim().min(1).max(20_000) }),
    responses: { 200: { description: "The description and the engine that wrote it", schema: ok(z.object({ note: z.string(), engine: z.enum(["model", "rules"]), model: z.string().optional() })) } },
    example: {
      request: { text: "Hi, I looked into the checkout error, cleared the cache and redeployed the payment plugin." },
      response: { success: true, data: { note: "Checkout error: cache cleared, plugin redeployed", engine: "model", model: "gemini-2.5-flash" } },
    },
    handler: async ({ body }, _req, res) => {
      await staff(res);
      const rules = !(await ctx.options.get("time_api.note_ai_enabled"));
      return { success: true as const, data: await ctx.ai.optimizeNote(body.text, { rules }) };
    },
  });
}

import { AppError } from "@mw/platform/core";
import { htmlToText } from "../ai/index.ts";
import { staffMember, threadEntry, ticketById, type Ticket } from "../tickets/index.ts";
import type { HarvestAuth, HarvestTimeEntry } from "@mw/providers/harvest";
import { asConnectedStaff, staffHarvestAuth } from "./connections.ts";
import { lockOwner } from "./locks.ts";
import { harvestClient, syncAuth, type TimeDeps } from "./settings.ts";

function refused(message: string, status = 400): AppError {
  return new AppError(status, "time_refused", message);
}

/** Spec 2, 4.5 rule 1: time goes on tickets linked to a project, by a connected staff member. */
async function ticketAndAuth(deps: TimeDeps, staffId: number, ticketId: number): Promise<{ projectId: number; auth: HarvestAuth }> {
  const ticket = await ticketById(deps, ticketId);
  if (!ticket) throw refused(`No ticket ${ticketId}.`, 404);
  if (ticket.time_project_id === null) throw refused(`Ticket #${ticket.number} is not linked to a time-tracking project.`);
  await requireUnlockedFor(deps, ticket, staffId);
  return { projectId: ticket.time_project_id, auth: await connected(deps, staffId) };
}

/** Design 10.8: a locked ticket takes no new time, manual entry or submit from anyone but its project manager, whom the refusal names. */
async function requireUnlockedFor(deps: TimeDeps, ticket: Pick<Ticket, "id" | "number" | "locked" | "department_manager_staff_id">, staffId: number): Promise<void> {
  if (!ticket.locked) return;
  const owner = await lockOwner(deps, ticket);
  if (owner === staffId) return;
  const manager = owner === null ? null : await staffMember(deps, owner);
  const who = manager ? `its project manager, ${manager.name},` : "its project manager";
  throw refused(`Ticket #${ticket.number} is over budget and locked: only ${who} can log more time or unlock it.`, 403);
}

async function connected(deps: TimeDeps, staffId: number): Promise<HarvestAuth> {
  const auth = await staffHarvestAuth(deps, staffId);
  if (!auth) throw refused("Connect your Harvest account first (timetracking/connect-url).", 403);
  return auth;
}

async function taskFor(deps: TimeDeps, taskId: number | undefined): Promise<number> {
  const task = taskId ?? (await deps.options.get("time_api.default_task_id"));
  if (task === null) throw refused("Choose a task: no task_id given and time_api.default_task_id is not set.");
  return task;
}

const today = () => new Date().toISOString().slice(0, 10);

function entryView(entry: HarvestTimeEntry) {
  return { entry_id: entry.id, project_id: entry.project.id, task: entry.task, hours: entry.hours, notes: entry.notes ?? null, is_running: entry.is_running, spent_date: entry.spent_date };
}

/** A staff member's own time-log row, or a 404 in the AJAX shape. */
async function ownLog(deps: TimeDeps, staffId: number, entryId: number) {
  const log = await deps.prisma.timeLog.findUnique({ where: { provider_entry_id: BigInt(entryId) } });
  if (!log || log.staff_id !== staffId) throw refused(`No time entry ${entryId} of yours.`, 404);
  return log;
}

/**
 * Spec 2, 3: start timer → a Harvest entry without hours (running) and a
 * time-log row with is_running 1. A staff member's timer already running on
 * the ticket is answered instead of a second one.
 */
export function startTimer(deps: TimeDeps, staffId: number, input: { ticket_id: number; task_id?: number; notes?: string }) {
  return asConnectedStaff(deps, staffId, async () => {
    const { projectId, auth } = await ticketAndAuth(deps, staffId, input.ticket_id);
    const harvest = await harvestClient(deps);
    const running = await deps.prisma.timeLog.findFirst({ where: { staff_id: staffId, ticket_id: input.ticket_id, is_running: true } });
    if (running) return { started: false, ...entryView(await harvest.timeEntry(auth, Number(running.provider_entry_id))) };
    const entry = await harvest.createTimeEntry(auth, { project_id: projectId, task_id: await taskFor(deps, input.task_id), spent_date: today(), ...(input.notes && { notes: input.notes }) });
    await deps.prisma.timeLog.create({ data: { ticket_id: input.ticket_id, staff_id: staffId, provider_entry_id: BigInt(entry.id), notes: input.notes ?? null, is_running: true } });
    return { started: true, ...entryView(entry) };
  });
}

/** Stops the timer at Harvest (an entry already stopped there is read instead) and records its hours. */
async function stopAtHarvest(deps: TimeDeps, auth: HarvestAuth, entryId: number): Promise<HarvestTimeEntry> {
  const harvest = await harvestClient(deps);
  const current = await harvest.timeEntry(auth, entryId);
  return current.is_running ? harvest.stopTimeEntry(auth, entryId) : current;
}

export function stopTimer(deps: TimeDeps, staffId: number, entryId: number) {
  return asConnectedStaff(deps, staffId, async () => {
    await ownLog(deps, staffId, entryId);
    const entry = await stopAtHarvest(deps, await connected(deps, staffId), entryId);
    await deps.prisma.timeLog.update({ where: { provider_entry_id: BigInt(entryId) }, data: { is_running: false, hours: entry.hours.toFixed(2) } });
    return entryView(entry);
  });
}

export function updateTimerNotes(deps: TimeDeps, staffId: number, entryId: number, notes: string, aiOptimized: boolean) {
  return asConnectedStaff(deps, staffId, async () => {
    await ownLog(deps, staffId, entryId);
    const entry = await (await harvestClient(deps)).updateTimeEntry(await connected(deps, staffId), entryId, { notes });
    await deps.prisma.timeLog.update({ where: { provider_entry_id: BigInt(entryId) }, data: { notes, ai_optimized: aiOptimized } });
    return entryView(entry);
  });
}

/** Spec 2, 4.5: is a timer of this staff member running on the project? Harvest's answer, which a timer started elsewhere also shows. */
export function runningTimer(deps: TimeDeps, staffId: number, projectId: number) {
  return asConnectedStaff(deps, staffId, async () => {
    const auth = await connected(deps, staffId);
    const row = await deps.prisma.staffOauthConnection.findUniqueOrThrow({ where: { staff_id: staffId } });
    const [entry] = await (await harvestClient(deps)).timeEntries(auth, { project_id: projectId, user_id: row.provider_user_id, is_running: true });
    return entry ? { running: true, ...entryView(entry) } : { running: false };
  });
}

type SubmitInput = { ticket_id: number; notes: string; ai_optimized?: boolean; thread_entry_id?: number } & ({ entry_id: number } | { hours: number; task_id?: number; spent_date?: string });

/**
 * Spec 2, 4.5 rule 2 and section 3: with a timer, stop it, push the notes and
 * finalise; with hours, create the completed entry and finalise. Either way
 * the time-log row ends with is_running 0 and the hours Harvest holds.
 */
export function submitTime(deps: TimeDeps, staffId: number, input: SubmitInput) {
  return asConnectedStaff(deps, staffId, async () => {
    const harvest = await harvestClient(deps);
    const finalise = { notes: input.notes, ai_optimized: input.ai_optimized ?? false, thread_entry_id: input.thread_entry_id ?? null, is_running: false };
    if ("entry_id" in input) {
      const log = await ownLog(deps, staffId, input.entry_id);
      if (log.ticket_id !== input.ticket_id) throw refused(`Time entry ${input.entry_id} belongs to another ticket.`);
      const ticket = await ticketById(deps, log.ticket_id);
      if (!ticket) throw refused(`No ticket ${log.ticket_id}.`, 404);
      await requireUnlockedFor(deps, ticket, staffId);
      const auth = await connected(deps, staffId);
      await stopAtHarvest(deps, auth, input.entry_id);
      const entry = await harvest.updateTimeEntry(auth, input.entry_id, { notes: input.notes });
      await deps.prisma.timeLog.update({ where: { id: log.id }, data: { ...finalise, hours: entry.hours.toFixed(2) } });
      return entryView(entry);
    }
    const { projectId, auth } = await ticketAndAuth(deps, staffId, input.ticket_id);
    const entry = await harvest.createTimeEntry(auth, { project_id: projectId, task_id: await taskFor(deps, input.task_id), spent_date: input.spent_date ?? today(), hours: input.hours, notes: input.notes });
    await deps.prisma.timeLog.create({ data: { ticket_id: input.ticket_id, staff_id: staffId, provider_entry_id: BigInt(entry.id), hours: entry.hours.toFixed(2), ...finalise } });
    return entryView(entry);
  });
}

/** A thread entry's text (HTML read as text); empty when the mirror does not have the entry. */
async function entryText(deps: TimeDeps, entryId: number): Promise<string> {
  const entry = await threadEntry(deps, entryId);
  if (!entry) return "";
  return entry.format === "html" ? htmlToText(entry.body) : entry.body;
}

/**
 * Ends a staff member's running timer on a ticket because they replied or
 * added a note (issue 20, spec 2 section 3): stopped at Harvest, the timer's
 * notes pushed (the entry's text when it has none), linked to the thread
 * entry, finalised. Nothing to do when no timer of theirs runs there.
 */
export async function stopTimerForReply(deps: TimeDeps, input: { ticket_id: number; staff_id: number; thread_entry_id: number }) {
  const log = await deps.prisma.timeLog.findFirst({ where: { ticket_id: input.ticket_id, staff_id: input.staff_id, is_running: true } });
  if (!log) return { stopped: false as const };
  const entryId = Number(log.provider_entry_id);
  const notes = log.notes || (await entryText(deps, input.thread_entry_id)).replace(/\s+/g, " ").trim().slice(0, 2000) || null;
  const entry = await asConnectedStaff(deps, input.staff_id, async () => {
    const auth = await connected(deps, input.staff_id);
    await stopAtHarvest(deps, auth, entryId);
    return notes ? (await harvestClient(deps)).updateTimeEntry(auth, entryId, { notes }) : (await harvestClient(deps)).timeEntry(auth, entryId);
  });
  await deps.prisma.timeLog.update({ where: { id: log.id }, data: { is_running: false, hours: entry.hours.toFixed(2), notes, thread_entry_id: input.thread_entry_id } });
  return { stopped: true as const, ...entryView(entry) };
}

/** The task assignments of a project, read with the sync credentials (design 10.8). */
export async function projectTasks(deps: TimeDeps, projectId: number) {
  const assignments = await (await harvestClient(deps)).taskAssignments(await syncAuth(deps.options), projectId, { is_active: true });
  return { tasks: assignments.map((assignment) => ({ id: assignment.task.id, name: assignment.task.name, billable: assignment.billable ?? null })), default_task_id: await deps.options.get("time_api.default_task_id") };
}

/**
 * Design 10.8: a finished entry whose note a person wrote gets the AI's 2 to
 * 8 word description, at Harvest and here (`ai_optimized` 1). Only a model
 * writes it: without a provider key the person's note stays.
 */
export async function optimizeLoggedNote(deps: TimeDeps, optimize: (text: string) => Promise<{ note: string; engine: "model" | "rules" }>, entryId: number) {
  const log = await deps.prisma.timeLog.findUnique({ where: { provider_entry_id: BigInt(entryId) } });
  if (!log || log.ai_optimized || !log.notes || log.is_running) return { skipped: "nothing_to_optimise" };
  const optimised = await optimize(log.notes);
  if (optimised.engine !== "model") return { skipped: "no_ai_provider" };
  await asConnectedStaff(deps, log.staff_id, async () => (await harvestClient(deps)).updateTimeEntry(await connected(deps, log.staff_id), entryId, { notes: optimised.note }));
  await deps.prisma.timeLog.update({ where: { id: log.id }, data: { notes: optimised.note, ai_optimized: true } });
  return { entry_id: entryId, note: optimised.note };
}

/** Whether a finished entry's note should be optimised afterwards (design 10.8). */
export async function noteWantsOptimising(deps: Pick<TimeDeps, "options">, input: { notes?: string | null; ai_optimized?: boolean }): Promise<boolean> {
  return Boolean(input.notes) && !input.ai_optimized && (await deps.options.get("time_api.note_ai_enabled"));
}

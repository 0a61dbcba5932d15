import type { Prisma } from "@mw/platform/database";
import type { HarvestAuth, HarvestClient, HarvestProject, HarvestTimeEntry } from "@mw/providers/harvest";
import { staffWithEmail, ticketsOnProjects, writeTimeTotals } from "../tickets/index.ts";
import { budgetMultiplier, shouldLock } from "./budget.ts";
import { harvestClient, syncAuth, type TimeDeps } from "./settings.ts";

export interface ImportCounts {
  projects: number;
  tickets: number;
  entries_added: number;
  entries_updated: number;
  entries_removed: number;
  locked: number[];
}

const hours2 = (value: number) => Math.round(value * 100) / 100;
/** The hour columns hold DECIMAL(8, 2): a larger Harvest budget stays Harvest's alone. */
const MAX_HOURS = 1_000_000;

/**
 * Design 10.8: the project manager is the Harvest project's member with
 * `is_project_manager`, mapped to staff by e-mail; else the ticket's
 * department manager.
 */
async function projectManager(deps: TimeDeps, harvest: HarvestClient, auth: HarvestAuth, projectId: number, fallback: number | null): Promise<number | null> {
  for (const assignment of await harvest.userAssignments(auth, projectId)) {
    if (!assignment.is_project_manager) continue;
    const user = await harvest.user(auth, assignment.user.id);
    if (!user.email) continue;
    const staff = await staffWithEmail(deps, user.email);
    if (staff) return staff.id;
  }
  return fallback;
}

/** One ticket's entries made equal to Harvest's, and its hours, budget and lock, in one transaction. */
async function applyProject(tx: Prisma.TransactionClient, ticketId: number, entries: HarvestTimeEntry[], counts: ImportCounts) {
  const stored = new Map((await tx.projectTimeEntry.findMany({ where: { ticket_id: ticketId } })).map((row) => [Number(row.provider_entry_id), row]));
  const fresh = entries.filter((entry) => !stored.has(entry.id));
  if (fresh.length) {
    const added = await tx.projectTimeEntry.createMany({
      data: fresh.map((entry) => ({ ticket_id: ticketId, provider_entry_id: BigInt(entry.id), user_id: entry.user.id, hours: entry.hours.toFixed(2), notes: entry.notes ?? null, spent_date: new Date(`${entry.spent_date}T00:00:00Z`) })),
      // An entry moved here from another project's ticket keeps its first row: a provider entry id is never inserted twice.
      skipDuplicates: true,
    });
    counts.entries_added += added.count;
  }
  for (const entry of entries) {
    const row = stored.get(entry.id);
    if (row && (Number(row.hours) !== hours2(entry.hours) || (row.notes ?? null) !== (entry.notes ?? null))) {
      await tx.projectTimeEntry.update({ where: { id: row.id }, data: { hours: entry.hours.toFixed(2), notes: entry.notes ?? null } });
      counts.entries_updated += 1;
    }
  }
  const present = new Set(entries.map((entry) => BigInt(entry.id)));
  const gone = [...stored.values()].filter((row) => !present.has(row.provider_entry_id)).map((row) => row.id);
  if (gone.length) counts.entries_removed += (await tx.projectTimeEntry.deleteMany({ where: { id: { in: gone } } })).count;
}

/**
 * Spec 2, 4.5 rule 5: every active project linked to a ticket: its entries
 * pulled (all pages) and stored once each, hours used recomputed as
 * Harvest's sum (edits and deletions seen), the budget from the project when
 * it has one, then the over-budget check. Answers the counts and the
 * tickets it locked, each with its lock event's id for the one notice.
 */
export async function importTime(deps: TimeDeps, onProject?: (done: number, total: number) => Promise<void>): Promise<ImportCounts & { lock_events: number[] }> {
  const auth = await syncAuth(deps.options);
  const harvest = await harvestClient(deps);
  const projects: HarvestProject[] = await harvest.projects(auth, { is_active: true });
  const tickets = await ticketsOnProjects(deps, projects.map((project) => project.id));
  const counts: ImportCounts = { projects: 0, tickets: tickets.length, entries_added: 0, entries_updated: 0, entries_removed: 0, locked: [] };
  const lockEvents: number[] = [];
  const linked = projects.filter((project) => tickets.some((ticket) => ticket.time_project_id === project.id));
  for (const [index, project] of linked.entries()) {
    counts.projects += 1;
    const entries = await harvest.timeEntries(auth, { project_id: project.id });
    const hoursUsed = hours2(entries.reduce((sum, entry) => sum + entry.hours, 0));
    for (const ticket of tickets.filter((candidate) => candidate.time_project_id === project.id)) {
      const budget = project.budget ?? (ticket.budget_hours === null ? null : Number(ticket.budget_hours));
      const state = { locked: ticket.locked, unlocked_budget: ticket.unlocked_budget === null ? null : Number(ticket.unlocked_budget), unlocked_hours: ticket.unlocked_hours === null ? null : Number(ticket.unlocked_hours) };
      const lock = shouldLock(state, hoursUsed, budget, budget === null ? 1 : await budgetMultiplier(deps.options, budget));
      const manager = lock ? await projectManager(deps, harvest, auth, project.id, ticket.department_manager_staff_id) : null;
      const event = await deps.prisma.$transaction(async (tx) => {
        await applyProject(tx, ticket.id, entries, counts);
        const changed = Number(ticket.hours_used) !== hoursUsed || lock || (budget !== null && Number(ticket.budget_hours) !== budget);
        await writeTimeTotals(tx, ticket.id, { hours_used: hoursUsed.toFixed(2), ...(project.budget != null && project.budget < MAX_HOURS && { budget_hours: project.budget.toFixed(2) }), lock }, changed);
        return lock ? tx.timeEvent.create({ data: { ticket_id: ticket.id, kind: "locked", hours_used: hoursUsed.toFixed(2), budget: (budget ?? 0).toFixed(2), staff_id: manager } }) : null;
      });
      if (event) {
        counts.locked.push(ticket.id);
        lockEvents.push(event.id);
      }
    }
    await onProject?.(index + 1, linked.length);
  }
  return { ...counts, lock_events: lockEvents };
}

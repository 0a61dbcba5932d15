import type { Prisma } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";
import { recordTicketChange } from "./changes.ts";

/** What the time import found for a ticket: Harvest's hours used, the project's budget when it has one, and whether it now locks. */
interface TimeTotals {
  hours_used: string;
  budget_hours?: string;
  lock: boolean;
}

/**
 * Stores a ticket's time totals in the import's transaction; a lock clears the
 * previous unlock. `changed` (the fields the ticket system shows moved) also
 * appends the changes feed's row.
 */
export async function writeTimeTotals(db: Prisma.TransactionClient, ticketId: number, totals: TimeTotals, changed: boolean): Promise<void> {
  await db.ticket.update({
    where: { id: ticketId },
    data: { hours_used: totals.hours_used, ...(totals.budget_hours !== undefined && { budget_hours: totals.budget_hours }), ...(totals.lock && { locked: true, unlocked_budget: null, unlocked_hours: null }) },
  });
  if (changed) await recordTicketChange(db, ticketId);
}

/** Unlocks the ticket, remembering the budget and hours used of the moment (design 10.8), in the caller's transaction, with the changes feed's row. */
export async function writeUnlock(db: Prisma.TransactionClient, ticketId: number, at: { budget: string; hours_used: string }): Promise<void> {
  await db.ticket.update({ where: { id: ticketId }, data: { locked: false, unlocked_budget: at.budget, unlocked_hours: at.hours_used } });
  await recordTicketChange(db, ticketId);
}

/** Links the ticket to a time-tracking project while it has none; answers whether this call linked it. */
export async function linkTimeProject({ prisma }: Pick<Connections, "prisma">, ticketId: number, projectId: number): Promise<boolean> {
  const linked = await prisma.ticket.updateMany({ where: { id: ticketId, time_project_id: null }, data: { time_project_id: projectId } });
  return linked.count === 1;
}

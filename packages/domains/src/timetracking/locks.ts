import { AppError } from "@mw/platform/core";
import type { Connections } from "@mw/platform/connections";
import { ticketById, writeUnlock, type Ticket } from "../tickets/index.ts";
import { lockNoticeOutcomes } from "./lock-notice.ts";

type Deps = Pick<Connections, "prisma">;

/** The staff member who may unlock: the project manager the lock named, else the department manager. */
export async function lockOwner({ prisma }: Deps, ticket: Pick<Ticket, "id" | "department_manager_staff_id">): Promise<number | null> {
  const event = await prisma.timeEvent.findFirst({ where: { ticket_id: ticket.id, kind: "locked" }, orderBy: [{ at: "desc" }, { id: "desc" }] });
  return event?.staff_id ?? ticket.department_manager_staff_id;
}

/**
 * Spec 2, 3: only the project manager unlocks an over-budget ticket. The
 * unlock is remembered with the budget and hours of the moment (design 10.8:
 * it sticks until the budget changes or hours grow by another 10 %).
 */
export async function unlockTicket(deps: Deps, ticketId: number, staffId: number) {
  const ticket = await ticketById(deps, ticketId);
  if (!ticket) throw new AppError(404, "time_refused", `No ticket ${ticketId}.`);
  if (!ticket.locked) throw new AppError(400, "time_refused", `Ticket #${ticket.number} is not locked.`);
  if ((await lockOwner(deps, ticket)) !== staffId) throw new AppError(403, "time_refused", `Only the project manager of ticket #${ticket.number} can unlock it.`);
  const budget = ticket.budget_hours === null ? 0 : Number(ticket.budget_hours);
  await deps.prisma.$transaction(async (tx) => {
    await writeUnlock(tx, ticketId, { budget: budget.toFixed(2), hours_used: ticket.hours_used.toString() });
    await tx.timeEvent.create({ data: { ticket_id: ticketId, kind: "unlocked", hours_used: ticket.hours_used, budget: budget.toFixed(2), staff_id: staffId } });
  });
  return { ticket_id: ticketId, locked: false };
}

/**
 * Spec 2, 4.5 rule 5: a ticket's imported entries and lock events, ordered by
 * when they happened, not by id. A lock says what its notice did per channel
 * (`notice`: sent, failed with each recipient's answer, not configured, or
 * retrying), as a CRITICAL alert's history does.
 */
export async function timeTimeline(deps: Pick<Connections, "prisma" | "redis" | "config">, ticketId: number) {
  const { prisma } = deps;
  const [entries, events] = await Promise.all([prisma.projectTimeEntry.findMany({ where: { ticket_id: ticketId } }), prisma.timeEvent.findMany({ where: { ticket_id: ticketId } })]);
  const lockEvents = await Promise.all(
    events.map(async (event) => ({
      type: event.kind as "locked" | "unlocked",
      at: event.at.toISOString(),
      staff_id: event.staff_id,
      hours_used: Number(event.hours_used),
      budget: Number(event.budget),
      ...(event.kind === "locked" ? { notice: await lockNoticeOutcomes(deps, event.id) } : {}),
    })),
  );
  const items = [
    ...entries.map((entry) => ({ type: "entry" as const, at: entry.spent_date.toISOString(), entry_id: Number(entry.provider_entry_id), user_id: entry.user_id, hours: Number(entry.hours), notes: entry.notes })),
    ...lockEvents,
  ];
  return items.sort((a, b) => a.at.localeCompare(b.at) || (a.type === "entry" ? -1 : 1));
}

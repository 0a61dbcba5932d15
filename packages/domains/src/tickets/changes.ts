import type { Prisma } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";

/** The ticket system's custom fields the platform writes (spec 2, 2.4), by their variable names. */
interface TicketFields {
  "ai-urgency": string | null;
  "ai-urgency-percentage": number | null;
  "ai-estimated-hours": number | null;
  "ticket-summary": string | null;
  "ai-timeline": string | null;
  "ai-suggested-title": string | null;
  "hours-used": number;
  locked: boolean;
}

type TicketRow = {
  ai_urgency: string | null;
  ai_urgency_percentage: number | null;
  ai_estimated_hours: { toString(): string } | null;
  ticket_summary: string | null;
  ai_timeline: string | null;
  ai_suggested_title: string | null;
  hours_used: { toString(): string };
  locked: boolean;
};

function ticketFields(ticket: TicketRow): TicketFields {
  return {
    "ai-urgency": ticket.ai_urgency,
    "ai-urgency-percentage": ticket.ai_urgency_percentage,
    "ai-estimated-hours": ticket.ai_estimated_hours === null ? null : Number(ticket.ai_estimated_hours),
    "ticket-summary": ticket.ticket_summary,
    "ai-timeline": ticket.ai_timeline,
    "ai-suggested-title": ticket.ai_suggested_title,
    "hours-used": Number(ticket.hours_used),
    locked: ticket.locked,
  };
}

/**
 * Appends the ticket's fields as they now are to the changes feed; called in
 * the transaction that changed them, so the feed never shows a change that
 * was rolled back, nor misses one that was not.
 */
export async function recordTicketChange(db: Prisma.TransactionClient, ticketId: number): Promise<void> {
  const ticket = await db.ticket.findUniqueOrThrow({ where: { id: ticketId } });
  // The writer's clock, as the reader's settle window uses the clock of its own host (both NTP-synced).
  await db.ticketChange.create({ data: { ticket_id: ticketId, fields: ticketFields(ticket) as unknown as Prisma.InputJsonValue, created: new Date() } });
}

/**
 * Design 10.8's feed: changes after `after`, oldest first, at most `limit`.
 * Ids commit out of order under concurrency, so the feed stops short of any
 * change younger than a few seconds that an older, uncommitted one might
 * still precede. `next_cursor` is where the next read starts.
 */
export async function changesAfter({ prisma }: Pick<Connections, "prisma">, after: number, limit: number) {
  const settled = new Date(Date.now() - CHANGES_SETTLE_MS);
  const rows = await prisma.ticketChange.findMany({ where: { id: { gt: after }, created: { lte: settled } }, orderBy: { id: "asc" }, take: limit });
  const numbers = new Map(
    (await prisma.ticket.findMany({ where: { id: { in: [...new Set(rows.map((row) => row.ticket_id))] } }, select: { id: true, number: true } })).map((ticket) => [ticket.id, ticket.number]),
  );
  return {
    changes: rows.map((row) => ({ cursor: row.id, ticket_id: row.ticket_id, ticket_number: numbers.get(row.ticket_id) ?? null, fields: row.fields as unknown as TicketFields })),
    next_cursor: rows.at(-1)?.id ?? after,
  };
}

/** Longer than any transaction that writes a change. */
const CHANGES_SETTLE_MS = 2_000;

import { cleanHtml } from "@mw/platform/text";
import type { Connections } from "@mw/platform/connections";

type Deps = Pick<Connections, "prisma">;

/** A mirrored ticket by the ticket system's id; null when the mirror has none. */
export function ticketById({ prisma }: Deps, ticketId: number) {
  return prisma.ticket.findUnique({ where: { id: ticketId } });
}

/** A mirrored ticket by the ticket system's id, with its organisation; null when the mirror has none. */
export function ticketWithOrganisation({ prisma }: Deps, ticketId: number) {
  return prisma.ticket.findUnique({ where: { id: ticketId }, include: { organisation: true } });
}

/** A mirrored ticket by its number, with its organisation; null when the mirror has none. */
export function ticketByNumber({ prisma }: Deps, number: string) {
  return prisma.ticket.findUnique({ where: { number }, include: { organisation: true } });
}

/** A ticket with its whole thread, oldest entry first: what an urgency analysis reads. */
export function ticketWithThread({ prisma }: Deps, ticketId: number) {
  return prisma.ticket.findUnique({ where: { id: ticketId }, include: { entries: { orderBy: [{ posted_at: "asc" }, { id: "asc" }] } } });
}

/** The numbers of these tickets, by id (an id the mirror does not know is left out). */
export async function ticketNumbersOf({ prisma }: Deps, ticketIds: number[]): Promise<Map<number, string>> {
  if (!ticketIds.length) return new Map();
  const tickets = await prisma.ticket.findMany({ where: { id: { in: [...new Set(ticketIds)] } }, select: { id: true, number: true } });
  return new Map(tickets.map((ticket) => [ticket.id, ticket.number]));
}

/** The tickets linked to any of these time-tracking projects, by id. */
export function ticketsOnProjects({ prisma }: Deps, projectIds: number[]) {
  return prisma.ticket.findMany({ where: { time_project_id: { in: projectIds } }, orderBy: { id: "asc" } });
}

/** One thread entry by the ticket system's id; null when the mirror has none. */
export function threadEntry({ prisma }: Deps, entryId: number) {
  return prisma.ticketEntry.findUnique({ where: { id: entryId } });
}

/**
 * A ticket's thread, oldest first, as a page shows it: HTML bodies cleaned by
 * the allow-list (design 10.8), text bodies as text (the page escapes them).
 * Cleaned on read, not on store: the quote stripper of the analysis cuts at
 * markup the allow-list drops (gmail_quote, blockquote type="cite").
 */
export async function ticketThread({ prisma }: Deps, ticketId: number, limit = 200) {
  const rows = await prisma.ticketEntry.findMany({ where: { ticket_id: ticketId }, orderBy: [{ posted_at: "asc" }, { id: "asc" }], take: limit });
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    poster_name: row.poster_name,
    poster_type: row.poster_type,
    is_internal: row.is_internal,
    ...(row.format === "html" ? { html: cleanHtml(row.body), text: null } : { html: null, text: row.body }),
    posted_at: row.posted_at.toISOString(),
  }));
}

/** The ticket list's filters; absent members do not filter. */
export interface TicketListFilter {
  /** A substring of the number, the subject or the client's name. */
  search?: string;
  urgency?: string;
  status?: string;
  assigned_staff_id?: number;
}

/** One page of mirrored tickets, most recently updated first, with their AI urgency: the console's and GET /tickets/v1/tickets' list. */
export async function listTickets({ prisma }: Deps, filter: TicketListFilter, window: { skip: number; take: number }) {
  const where = {
    ai_urgency: filter.urgency,
    status: filter.status,
    assigned_staff_id: filter.assigned_staff_id,
    ...(filter.search ? { OR: [{ number: { contains: filter.search } }, { subject: { contains: filter.search } }, { client_name: { contains: filter.search } }] } : {}),
  };
  const [total, rows] = await Promise.all([
    prisma.ticket.count({ where }),
    prisma.ticket.findMany({
      where,
      select: { id: true, number: true, subject: true, status: true, client_name: true, assigned_staff_id: true, ai_urgency: true, ai_urgency_percentage: true, opened_at: true, updated_at: true },
      orderBy: [{ updated_at: "desc" }, { id: "desc" }],
      ...window,
    }),
  ]);
  return { total, rows: rows.map((row) => ({ ...row, opened_at: row.opened_at.toISOString(), updated_at: row.updated_at.toISOString() })) };
}

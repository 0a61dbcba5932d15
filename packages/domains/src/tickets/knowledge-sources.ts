import type { PrismaClient } from "@mw/platform/database";

/*
 * What the assistant's knowledge index (the knowledge domain) reads of the
 * ticket mirror: tickets with their recent thread, which tickets changed,
 * tickets and organisations by what staff type, and a staff member's name.
 */

/** The tickets with their organisation's name and their last 50 thread entries, newest first. */
export function ticketsWithRecentEntries(prisma: PrismaClient, ticketIds: number[]) {
  return prisma.ticket.findMany({
    where: { id: { in: ticketIds } },
    select: { id: true, number: true, subject: true, status: true, client_name: true, ticket_summary: true, organisation: { select: { name: true } }, entries: { orderBy: { posted_at: "desc" }, take: 50, select: { type: true, poster_name: true, body: true, format: true, posted_at: true } } },
  });
}

/** Every mirrored ticket's id, in order. */
export async function allTicketIds(prisma: PrismaClient): Promise<number[]> {
  return (await prisma.ticket.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((row) => row.id);
}

/** Tickets updated, or given a thread entry, since `since`, in order. */
export async function ticketIdsChangedSince(prisma: PrismaClient, since: Date): Promise<number[]> {
  const [tickets, entries] = await Promise.all([
    prisma.ticket.findMany({ where: { updated_at: { gte: since } }, select: { id: true } }),
    prisma.ticketEntry.findMany({ where: { created_at: { gte: since } }, select: { ticket_id: true }, distinct: ["ticket_id"] }),
  ]);
  return [...new Set([...tickets.map((row) => row.id), ...entries.map((row) => row.ticket_id)])].sort((a, b) => a - b);
}

/** Tickets by number as written (`#4512` finds 004512 too), in the order asked. */
export async function ticketsByNumber(prisma: PrismaClient, numbers: string[]): Promise<{ id: number; number: string }[]> {
  if (!numbers.length) return [];
  const candidates = numbers.flatMap((number) => [number, number.padStart(6, "0")]);
  const rows = await prisma.ticket.findMany({ where: { number: { in: candidates } }, select: { id: true, number: true } });
  return numbers.flatMap((number) => rows.filter((row) => row.number === number || row.number === number.padStart(6, "0")).slice(0, 1));
}

/** The organisation of that name, else the first whose name starts with it. */
export async function organisationByName(prisma: PrismaClient, name: string): Promise<{ id: number; name: string } | null> {
  return (
    (await prisma.organisation.findFirst({ where: { name }, select: { id: true, name: true } })) ??
    (await prisma.organisation.findFirst({ where: { name: { startsWith: name } }, orderBy: { name: "asc" }, select: { id: true, name: true } }))
  );
}

/** An organisation's tickets opened since `since` (all when null): how many, and the newest `limit` of them. */
export async function organisationTickets(prisma: PrismaClient, organisationId: number, since: Date | null, limit: number) {
  const where = { organisation_id: organisationId, ...(since && { opened_at: { gte: since } }) };
  const [total, tickets] = await Promise.all([
    prisma.ticket.count({ where }),
    prisma.ticket.findMany({ where, orderBy: { opened_at: "desc" }, take: limit, select: { number: true, subject: true, ticket_summary: true } }),
  ]);
  return { total, tickets };
}

/** A mirrored staff member's name; null when the mirror does not know them. */
export async function staffNameOf(prisma: PrismaClient, staffId: number): Promise<string | null> {
  return (await prisma.staff.findUnique({ where: { id: staffId }, select: { name: true } }))?.name ?? null;
}

import type { Connections } from "@mw/platform/connections";

/** The id of the ticket with this number, or null when the mirror has none. */
export async function ticketIdByNumber({ prisma }: Pick<Connections, "prisma">, number: string): Promise<number | null> {
  const ticket = await prisma.ticket.findUnique({ where: { number }, select: { id: true } });
  return ticket?.id ?? null;
}

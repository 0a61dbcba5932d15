import type { Prisma } from "@mw/platform/database";
import { recordTicketChange } from "./changes.ts";

/** The six fields an urgency analysis writes (spec 2, 2.4), as the ticket stores them. */
interface AnalysisFields {
  ai_urgency: string;
  ai_urgency_percentage: number;
  ai_estimated_hours: string;
  ticket_summary: string;
  ai_timeline: string;
  ai_suggested_title: string;
}

/** Writes an analysis's six fields in the analysis's own transaction, with the changes feed's row. */
export async function writeAnalysisFields(db: Prisma.TransactionClient, ticketId: number, fields: AnalysisFields): Promise<void> {
  await db.ticket.update({ where: { id: ticketId }, data: fields });
  await recordTicketChange(db, ticketId);
}

import type { Connections } from "@mw/platform/connections";
import { totalByDay } from "@mw/platform/database";
import { ticketByNumber, ticketIdByNumber, ticketNumbersOf } from "../tickets/index.ts";
import { MAX_URGENCY_FAILURES } from "./queue.ts";

type Deps = Pick<Connections, "prisma">;

interface SnapshotFilters {
  page: number;
  per_page: number;
  ticket_number?: string;
  level?: string;
  from?: Date;
  to?: Date;
}

const hours = (value: { toString(): string } | null) => (value === null ? null : Number(value));

/** Design 10.3: one page of snapshots, newest first, filtered by ticket number, level and a creation range, and how many match. */
export async function listSnapshots(deps: Deps, filters: SnapshotFilters) {
  const { prisma } = deps;
  let ticketId: number | undefined;
  if (filters.ticket_number !== undefined) {
    const found = await ticketIdByNumber(deps, filters.ticket_number);
    if (found === null) return { snapshots: [], total: 0 };
    ticketId = found;
  }
  const where = {
    ...(ticketId !== undefined && { ticket_id: ticketId }),
    ...(filters.level && { urgency: filters.level }),
    ...((filters.from || filters.to) && { created: { ...(filters.from && { gte: filters.from }), ...(filters.to && { lte: filters.to }) } }),
  };
  const level = filters.level || undefined;
  // A ticket's snapshots are counted from its index; any other filter sums the kept counts of each day
  // (`to` is inclusive, created has milliseconds: the range ends a millisecond after it).
  const count =
    ticketId !== undefined
      ? prisma.aiSnapshot.count({ where })
      : totalByDay(
          { from: filters.from, before: filters.to && new Date(filters.to.getTime() + 1) },
          async (day) => (await prisma.aiSnapshotCount.aggregate({ _sum: { snapshots: true }, where: { day, urgency: level } }))._sum.snapshots,
          (created) => prisma.aiSnapshot.count({ where: { urgency: level, created } }),
        );
  const [total, rows] = await Promise.all([
    count,
    prisma.aiSnapshot.findMany({ where, orderBy: [{ created: "desc" }, { id: "desc" }], skip: (filters.page - 1) * filters.per_page, take: filters.per_page }),
  ]);
  const numbers = await ticketNumbersOf(deps, rows.map((row) => row.ticket_id));
  return {
    snapshots: rows.map((row) => ({
      id: row.id,
      ticket_id: row.ticket_id,
      ticket_number: numbers.get(row.ticket_id) ?? null,
      urgency: row.urgency,
      urgency_percentage: row.urgency_percentage,
      estimated_hours: Number(row.estimated_hours),
      summary: row.summary,
      timeline: row.timeline,
      suggested_title: row.suggested_title,
      model_used: row.model_used,
      created: row.created.toISOString(),
    })),
    total,
  };
}

/** A queue row as the read side shows it: pending, processed, or skipped after five failures. */
function queueState(row: { processed: boolean; failures: number }): "pending" | "processed" | "skipped" {
  if (row.processed) return "processed";
  return row.failures >= MAX_URGENCY_FAILURES ? "skipped" : "pending";
}

function queueView(row: { ticket_id: number; processed: boolean; failures: number; queued_at: Date; analysed_at: Date | null; last_error: string | null }) {
  return { state: queueState(row), processed: row.processed, failures: row.failures, queued_at: row.queued_at.toISOString(), analysed_at: row.analysed_at?.toISOString() ?? null, last_error: row.last_error };
}

/** Design 10.3: a ticket by number with its six AI fields, its urgency queue row and its AI history, newest first. */
export async function ticketDetail(deps: Deps, number: string) {
  const { prisma } = deps;
  const ticket = await ticketByNumber(deps, number);
  if (!ticket) return null;
  const [queued, history] = await Promise.all([
    prisma.urgencyQueueEntry.findUnique({ where: { ticket_id: ticket.id } }),
    prisma.aiHistory.findMany({ where: { ticket_id: ticket.id }, orderBy: [{ created: "desc" }, { id: "desc" }], take: 200 }),
  ]);
  return {
    id: ticket.id,
    number: ticket.number,
    subject: ticket.subject,
    status: ticket.status,
    organisation: ticket.organisation ? { id: ticket.organisation.id, name: ticket.organisation.name } : null,
    client_name: ticket.client_name,
    is_vip: ticket.is_vip,
    customer_type: ticket.customer_type,
    department_id: ticket.department_id,
    assigned_staff_id: ticket.assigned_staff_id,
    time_project_id: ticket.time_project_id,
    budget_hours: hours(ticket.budget_hours),
    quoted_hours: hours(ticket.quoted_hours),
    hours_used: Number(ticket.hours_used),
    locked: ticket.locked,
    ai_urgency: ticket.ai_urgency,
    ai_urgency_percentage: ticket.ai_urgency_percentage,
    ai_estimated_hours: hours(ticket.ai_estimated_hours),
    ticket_summary: ticket.ticket_summary,
    ai_timeline: ticket.ai_timeline,
    ai_suggested_title: ticket.ai_suggested_title,
    urgency_queue: queued ? queueView(queued) : null,
    history: history.map((row) => ({ id: row.id, event: row.event, channel: row.channel, detail: row.detail, sent_at: row.sent_at?.toISOString() ?? null, created: row.created.toISOString() })),
  };
}

/** The urgency queue (spec 2, 3): counts by state, and the rows of one state, oldest entry first. */
export async function urgencyQueueState(deps: Deps, filters: { state?: "pending" | "processed" | "skipped"; page: number; per_page: number }) {
  const { prisma } = deps;
  const byState = {
    pending: { processed: false, failures: { lt: MAX_URGENCY_FAILURES } },
    processed: { processed: true },
    skipped: { processed: false, failures: { gte: MAX_URGENCY_FAILURES } },
  };
  const [pending, processed, skipped] = await Promise.all([
    prisma.urgencyQueueEntry.count({ where: byState.pending }),
    prisma.urgencyQueueEntry.count({ where: byState.processed }),
    prisma.urgencyQueueEntry.count({ where: byState.skipped }),
  ]);
  const where = filters.state ? byState[filters.state] : {};
  const rows = await prisma.urgencyQueueEntry.findMany({ where, orderBy: [{ queued_at: "asc" }, { ticket_id: "asc" }], skip: (filters.page - 1) * filters.per_page, take: filters.per_page });
  const numbers = await ticketNumbersOf(deps, rows.map((row) => row.ticket_id));
  return {
    counts: { pending, processed, skipped },
    entries: rows.map((row) => ({ ticket_id: row.ticket_id, ticket_number: numbers.get(row.ticket_id) ?? null, ...queueView(row) })),
    page: filters.page,
    per_page: filters.per_page,
  };
}

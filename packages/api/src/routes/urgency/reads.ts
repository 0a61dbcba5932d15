import { errors } from "@mw/platform";
import { listTickets } from "@mw/domains/tickets";
import { listSnapshots, ticketDetail, URGENCY_LEVELS, urgencyQueueState } from "@mw/domains/urgency";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";
import { readSpec2 } from "../../http/validation.ts";

const snapshotQuery = pageQuery.extend({
  ticket_number: z.string().trim().min(1).max(32).optional(),
  level: z.enum(URGENCY_LEVELS).optional(),
  from: z.iso.datetime({ offset: true }).optional().describe("created at or after (ISO-8601)"),
  to: z.iso.datetime({ offset: true }).optional().describe("created at or before (ISO-8601)"),
});

const snapshot = z.object({
  id: z.number().int(),
  ticket_id: z.number().int(),
  ticket_number: z.string().nullable(),
  urgency: z.enum(URGENCY_LEVELS),
  urgency_percentage: z.number().int(),
  estimated_hours: z.number(),
  summary: z.string().describe("HTML, cleaned"),
  timeline: z.string().describe("HTML, cleaned"),
  suggested_title: z.string(),
  model_used: z.string().describe("the model that answered, or rules"),
  created: z.string(),
});

const queueRow = z.object({
  state: z.enum(["pending", "processed", "skipped"]),
  processed: z.boolean(),
  failures: z.number().int(),
  queued_at: z.string(),
  analysed_at: z.string().nullable(),
  last_error: z.string().nullable(),
});

const ticket = z.object({
  id: z.number().int(),
  number: z.string(),
  subject: z.string(),
  status: z.string(),
  ai_urgency: z.enum(URGENCY_LEVELS).nullable(),
  ai_urgency_percentage: z.number().int().nullable(),
  ai_estimated_hours: z.number().nullable(),
  ticket_summary: z.string().nullable(),
  ai_timeline: z.string().nullable(),
  ai_suggested_title: z.string().nullable(),
  urgency_queue: queueRow.nullable(),
  history: z.array(z.object({ id: z.number().int(), event: z.string(), channel: z.string().nullable(), detail: z.unknown(), sent_at: z.string().nullable(), created: z.string() })),
}).loose();

const ticketListQuery = pageQuery.extend({
  search: z.string().trim().min(1).max(50).optional().describe("a substring of the number, the subject or the client's name"),
  urgency: z.enum(URGENCY_LEVELS).optional(),
  status: z.string().trim().min(1).max(32).optional(),
  assigned_staff_id: z.coerce.number().int().positive().optional(),
});

const ticketRow = z.object({
  id: z.number().int(),
  number: z.string(),
  subject: z.string(),
  status: z.string(),
  client_name: z.string().nullable(),
  assigned_staff_id: z.number().int().nullable(),
  ai_urgency: z.enum(URGENCY_LEVELS).nullable(),
  ai_urgency_percentage: z.number().int().nullable(),
  opened_at: z.string(),
  updated_at: z.string(),
});

const queueQuery = pageQuery.extend({ state: z.enum(["pending", "processed", "skipped"]).optional() });

const snapshotExample = {
  id: 31,
  ticket_id: 123,
  ticket_number: "004512",
  urgency: "CRITICAL",
  urgency_percentage: 90,
  estimated_hours: 3.5,
  summary: "<p>Checkout returns a 500 error for every customer since 9am.</p>",
  timeline: "<ul><li>09:00 client reports the outage</li><li>09:20 staff confirms</li></ul><p>Respond within 1 hour</p>",
  suggested_title: "Checkout returns 500 for all customers",
  model_used: "gemini-2.5-flash",
  created: "2026-11-20T09:21:04.120Z",
};

async function snapshotPage(ctx: Pick<AppContext, "prisma">, query: z.output<typeof snapshotQuery>) {
  const { snapshots, total } = await listSnapshots(ctx, {
    ...query,
    from: query.from ? new Date(query.from) : undefined,
    to: query.to ? new Date(query.to) : undefined,
  });
  return pageOf("snapshots", snapshots, total, query);
}

/** Spec 2, 4.7.5 under the staff AJAX root: the snapshot page of the ticket system's staff panel (its plugin forwards it). */
export function urgencyStaffRoutes(api: ApiRouter, ctx: Pick<AppContext, "prisma">): void {
  api.route({
    method: "get",
    path: "/urgency/snapshots",
    summary: "AI snapshots for the ticket system's staff page, newest first, filterable by ticket number, level and date range",
    tag: "urgency",
    access: "staff_or_manage_options",
    documentQuery: snapshotQuery,
    responses: { 200: { description: "One page of snapshots", schema: z.object({ success: z.literal(true), data: pageSchema("snapshots", snapshot) }) } },
    example: { response: { success: true, data: { snapshots: [snapshotExample], total: 1, page: 1, per_page: 20, total_pages: 1 } } },
    handler: async (_input, req) => ({ success: true as const, data: await snapshotPage(ctx, readSpec2(snapshotQuery, req.query)) }),
  });
}

/** Spec 2, 4.7.5 and design 10.3: the urgency read side, for staff and administrators. */
export function urgencyReadRoutes(api: ApiRouter, ctx: Pick<AppContext, "prisma">): void {
  api.route({
    method: "get",
    path: "/tickets/v1/snapshots",
    summary: "AI snapshots, newest first, filterable by ticket number, level and date range",
    tag: "tickets",
    access: "staff_or_manage_options",
    documentQuery: snapshotQuery,
    responses: { 200: { description: "One page of snapshots", schema: pageSchema("snapshots", snapshot) } },
    example: { response: { snapshots: [snapshotExample], total: 1, page: 1, per_page: 20, total_pages: 1 } },
    handler: async (_input, req) => snapshotPage(ctx, readSpec2(snapshotQuery, req.query)),
  });

  api.route({
    method: "get",
    path: "/tickets/v1/tickets",
    summary: "Mirrored tickets, most recently updated first, with their AI urgency; filterable by text, urgency, status and assignee",
    tag: "tickets",
    access: "staff_or_manage_options",
    documentQuery: ticketListQuery,
    responses: { 200: { description: "One page of tickets", schema: pageSchema("tickets", ticketRow) } },
    example: {
      response: {
        tickets: [{ id: 123, number: "004512", subject: "Checkout down", status: "open", client_name: "Ann Lee", assigned_staff_id: 9, ai_urgency: "CRITICAL", ai_urgency_percentage: 90, opened_at: "2026-11-20T09:00:00.000Z", updated_at: "2026-11-20T09:21:04.120Z" }],
        total: 1,
        page: 1,
        per_page: 20,
        total_pages: 1,
      },
    },
    handler: async (_input, req) => {
      const query = readSpec2(ticketListQuery, req.query);
      const { total, rows } = await listTickets(ctx, query, pageWindow(query));
      return pageOf("tickets", rows, total, query);
    },
  });

  api.route({
    method: "get",
    path: "/tickets/v1/tickets/:number",
    summary: "A ticket by number with its six AI fields, urgency queue row and AI history",
    tag: "tickets",
    access: "staff_or_manage_options",
    params: z.object({ number: z.string().min(1).max(32) }),
    responses: { 200: { description: "The ticket", schema: ticket }, 404: { description: "rest_not_found: no ticket with this number" } },
    example: {
      response: {
        id: 123,
        number: "004512",
        subject: "Checkout down",
        status: "open",
        organisation: { id: 7, name: "ACME" },
        client_name: "Ann Lee",
        is_vip: false,
        customer_type: "retainer",
        department_id: 2,
        assigned_staff_id: 9,
        time_project_id: null,
        budget_hours: 10,
        quoted_hours: 8,
        hours_used: 0,
        locked: false,
        ai_urgency: "CRITICAL",
        ai_urgency_percentage: 90,
        ai_estimated_hours: 3.5,
        ticket_summary: snapshotExample.summary,
        ai_timeline: snapshotExample.timeline,
        ai_suggested_title: snapshotExample.suggested_title,
        urgency_queue: { state: "processed", processed: true, failures: 0, queued_at: "2026-11-20T09:20:11.500Z", analysed_at: "2026-11-20T09:21:02.010Z", last_error: null },
        history: [
          { id: 12, event: "critical_alert", channel: "email", detail: { sent_to: ["pm@agency.example"] }, sent_at: "2026-11-20T09:21:06.300Z", created: "2026-11-20T09:21:04.120Z" },
          { id: 11, event: "analysis", channel: null, detail: { urgency: "CRITICAL", urgency_percentage: 90, previous_percentage: 60, capped: false, model_used: "gemini-2.5-flash", entries: 3 }, sent_at: null, created: "2026-11-20T09:21:04.120Z" },
        ],
      },
    },
    handler: async ({ params }) => {
      const found = await ticketDetail(ctx, params.number);
      if (!found) throw errors.notFound(`No ticket with number ${params.number}.`);
      return found;
    },
  });

  api.route({
    method: "get",
    path: "/tickets/v1/urgency-queue",
    summary: "The urgency queue: counts of pending, processed and skipped tickets, and the rows of one state",
    tag: "tickets",
    access: "staff_or_manage_options",
    documentQuery: queueQuery,
    responses: {
      200: {
        description: "Counts by state and one page of rows (skipped: five failed runs, kept until a new entry re-queues the ticket)",
        schema: z.object({ counts: z.object({ pending: z.number().int(), processed: z.number().int(), skipped: z.number().int() }), entries: z.array(queueRow.extend({ ticket_id: z.number().int(), ticket_number: z.string().nullable() })), page: z.number().int(), per_page: z.number().int() }),
      },
    },
    example: {
      response: {
        counts: { pending: 1, processed: 40, skipped: 1 },
        entries: [{ ticket_id: 140, ticket_number: "004530", state: "skipped", processed: false, failures: 5, queued_at: "2026-11-20T08:00:00.000Z", analysed_at: null, last_error: "AI request failed after retries and the fallback models: AI provider overloaded" }],
        page: 1,
        per_page: 20,
      },
    },
    handler: async (_input, req) => urgencyQueueState(ctx, readSpec2(queueQuery, req.query)),
  });
}

import { errors } from "@mw/platform";
import { URGENCY_LEVELS } from "@mw/shared/ai";
import { listSnapshots, ticketDetail, urgencyQueueState } from "@mw/shared/tickets";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema } from "../../http/pagination.ts";
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

const queueQuery = pageQuery.extend({ state: z.enum(["pending", "processed", "skipped"]).optional() });

/** Spec 2, 4.7.5 and design 10.3: the urgency read side, for staff and administrators. */
export function urgencyReadRoutes(api: ApiRouter, ctx: AppContext): void {
  api.route({
    method: "get",
    path: "/tickets/v1/snapshots",
    summary: "AI snapshots, newest first, filterable by ticket number, level and date range",
    tag: "tickets",
    access: "staff_or_manage_options",
    documentQuery: snapshotQuery,
    responses: { 200: { description: "One page of snapshots", schema: pageSchema("snapshots", snapshot) } },
    handler: async (_input, req) => {
      const query = readSpec2(snapshotQuery, req.query);
      const { snapshots, total } = await listSnapshots(ctx.prisma, {
        ...query,
        from: query.from ? new Date(query.from) : undefined,
        to: query.to ? new Date(query.to) : undefined,
      });
      return pageOf("snapshots", snapshots, total, query);
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
    handler: async ({ params }) => {
      const found = await ticketDetail(ctx.prisma, params.number);
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
    handler: async (_input, req) => urgencyQueueState(ctx.prisma, readSpec2(queueQuery, req.query)),
  });
}

import { URGENCY_LEVELS } from "@mw/domains/urgency";
import { changesAfter } from "@mw/domains/tickets";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { readSpec2 } from "../../http/validation.ts";

const changesQuery = z.object({
  after: z.coerce.number().int().min(0).default(0).describe("the next_cursor of the last read; 0 for the start"),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

const fields = z.object({
  "ai-urgency": z.enum(URGENCY_LEVELS).nullable(),
  "ai-urgency-percentage": z.number().int().nullable(),
  "ai-estimated-hours": z.number().nullable(),
  "ticket-summary": z.string().nullable().describe("HTML, cleaned"),
  "ai-timeline": z.string().nullable().describe("HTML, cleaned"),
  "ai-suggested-title": z.string().nullable(),
  "hours-used": z.number(),
  locked: z.boolean(),
});

/** Design 10.8: what flows back to the ticket system's custom fields (docs/ticket-bridge.md). */
export function ticketChangesRoutes(api: ApiRouter, ctx: Pick<AppContext, "prisma">): void {
  api.route({
    method: "get",
    path: "/tickets/v1/changes",
    summary: "The changes feed: each ticket's custom fields after each change, in order, from a cursor",
    tag: "tickets",
    access: "ticket_system",
    documentQuery: changesQuery,
    responses: {
      200: {
        description: "Changes after the cursor, oldest first; next_cursor is where the next read starts (the same cursor when there is nothing new)",
        schema: z.object({ changes: z.array(z.object({ cursor: z.number().int(), ticket_id: z.number().int(), ticket_number: z.string().nullable(), fields })), next_cursor: z.number().int() }),
      },
    },
    example: {
      response: {
        changes: [
          {
            cursor: 1042,
            ticket_id: 123,
            ticket_number: "004512",
            fields: {
              "ai-urgency": "CRITICAL",
              "ai-urgency-percentage": 90,
              "ai-estimated-hours": 3.5,
              "ticket-summary": "<p>Checkout returns a 500 error for every customer since 9am.</p>",
              "ai-timeline": "<ul><li>09:00 client reports the outage</li><li>09:20 staff confirms</li></ul><p>Respond within 1 hour</p>",
              "ai-suggested-title": "Checkout returns 500 for all customers",
              "hours-used": 1.25,
              locked: false,
            },
          },
        ],
        next_cursor: 1042,
      },
    },
    handler: async (_input, req) => {
      const query = readSpec2(changesQuery, req.query);
      return changesAfter(ctx, query.after, query.limit);
    },
  });
}

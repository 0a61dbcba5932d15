import { ticketSignal } from "@mw/domains/tickets";
import { receiveTicketSignal } from "@mw/domains/urgency";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { readSpec2 } from "../../http/validation.ts";

/** A history load (the plugin's configure.php --backfill-days) stores the signal without queuing an urgency analysis. */
const delivery = z.object({ backfill: z.boolean().default(false).describe("true for history: stored, no urgency analysis queued (the knowledge index embeds it)") });

const accepted = z.object({
  success: z.literal(true),
  signal: z.string(),
  changed: z.boolean().describe("false for a redelivered signal: nothing stored changed"),
  queued: z.boolean().describe("an urgency analysis was queued (202)"),
});

/** Design 10.1: the ticket system's signals, idempotent by its ids. */
export function ticketSignalRoutes(api: ApiRouter, ctx: Pick<AppContext, "logger" | "options" | "prisma" | "queues">): void {
  api.route({
    method: "post",
    path: "/tickets/v1/signals",
    summary: "Receive a ticket-system signal: thread entry, ticket created, updated or assigned, staff updated",
    tag: "tickets",
    access: "ticket_system",
    documentBody: ticketSignal,
    responses: {
      200: { description: "Stored, or already stored (a redelivery changes nothing); no work queued", schema: accepted },
      202: { description: "Stored, and the ticket's urgency analysis queued (a message, response or note)", schema: accepted },
    },
    example: {
      request: {
        signal: "threadentry.created",
        ticket: {
          id: 123,
          number: "004512",
          subject: "Checkout down",
          status: "open",
          organisation: { id: 7, name: "ACME" },
          user: { name: "Ann Lee", email: "ann@acme.example" },
          is_vip: false,
          customer_type: "retainer",
          department: { id: 2, name: "Support", manager_staff_id: 4 },
          assigned_staff_id: 9,
          created: "2026-11-20T09:00:00Z",
          fields: { time_project_id: null, budget_hours: 10, quoted_hours: 8 },
        },
        entry: { id: 991, type: "M", poster_name: "Ann Lee", poster_type: "User", staff_id: null, is_internal: false, body: "Since 9am no customer can pay.", format: "text", created: "2026-11-20T09:00:00Z" },
      },
      status: 202,
      response: { success: true, signal: "threadentry.created", changed: true, queued: true },
    },
    handler: async (_input, req, res) => {
      const signal = readSpec2(ticketSignal, req.body);
      const { backfill } = readSpec2(delivery, req.body);
      const outcome = await receiveTicketSignal(ctx, signal, { analyse: !backfill });
      if (outcome.recipients) ctx.logger.warn("staff directory signal changed alert recipients", { signal: signal.signal, staff_id: "staff" in signal ? signal.staff.id : null, changes: outcome.recipients, remote_addr: req.ip });
      res.status(outcome.queued ? 202 : 200);
      return { success: true as const, signal: signal.signal, changed: outcome.changed, queued: outcome.queued };
    },
  });
}

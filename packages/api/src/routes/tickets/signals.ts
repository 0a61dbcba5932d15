import { retryOnDeadlock } from "@mw/shared";
import { applySignal, applyUrgencyLimit, markAnalysisOwed, queueAnalysisJob, ticketSignal } from "@mw/shared/tickets";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { readSpec2 } from "../../http/validation.ts";

const accepted = z.object({
  success: z.literal(true),
  signal: z.string(),
  changed: z.boolean().describe("false for a redelivered signal: nothing stored changed"),
  queued: z.boolean().describe("an urgency analysis was queued (202)"),
});

/** Design 10.1: the ticket system's signals, idempotent by its ids. */
export function ticketSignalRoutes(api: ApiRouter, ctx: AppContext): void {
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
    handler: async (_input, req, res) => {
      const signal = readSpec2(ticketSignal, req.body);
      // One commit for the mirror and the queue row: a signal is stored whole or not at all.
      const { outcome, analysedAt } = await retryOnDeadlock(() =>
        ctx.prisma.$transaction(async (tx) => {
          const applied = await applySignal(tx, signal);
          return { outcome: applied, analysedAt: applied.analyse ? await markAnalysisOwed(tx, applied.analyse.ticket_id) : null };
        }),
      );
      if (outcome.analyse) {
        await applyUrgencyLimit(ctx);
        await queueAnalysisJob(ctx, outcome.analyse.ticket_id, analysedAt);
      }
      res.status(outcome.analyse ? 202 : 200);
      return { success: true as const, signal: signal.signal, changed: outcome.changed, queued: Boolean(outcome.analyse) };
    },
  });
}

import { retryOnDeadlock } from "@mw/platform";
import { applySignal, applyUrgencyLimit, markAnalysisOwed, queueAnalysisJob, ticketSignal, type SignalOutcome, type TicketSignal } from "@mw/shared/tickets";
import { projectCreateJob, projectCreateJobId, timerStopOnReplyJob, timerStopOnReplyJobId } from "@mw/shared/timetracking";
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

/**
 * What a signal means for time tracking: a staff reply or note ends that
 * staff member's running timer on the ticket (issue 20), and an assignment
 * of a ticket without a project creates one (spec 2, 4.5 rule 4). Both are
 * jobs: they call Harvest.
 */
async function queueTimeFollowUps(ctx: AppContext, signal: TicketSignal, outcome: SignalOutcome): Promise<void> {
  if (signal.signal === "threadentry.created" && outcome.analyse && signal.entry.type !== "M" && signal.entry.staff_id) {
    const running = await ctx.prisma.timeLog.count({ where: { ticket_id: signal.ticket.id, staff_id: signal.entry.staff_id, is_running: true } });
    if (running) {
      await ctx.queues.add(timerStopOnReplyJob, { ticket_id: signal.ticket.id, staff_id: signal.entry.staff_id, thread_entry_id: signal.entry.id }, { jobId: timerStopOnReplyJobId(signal.entry.id) });
    }
  }
  if (signal.signal === "ticket.assigned" && (await ctx.options.get("time_api.enabled"))) {
    const ticket = await ctx.prisma.ticket.findUnique({ where: { id: signal.ticket.id }, select: { time_project_id: true } });
    if (ticket && ticket.time_project_id === null) await ctx.queues.add(projectCreateJob, { ticket_id: signal.ticket.id }, { jobId: projectCreateJobId(signal.ticket.id) });
  }
}

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
      await queueTimeFollowUps(ctx, signal, outcome);
      res.status(outcome.analyse ? 202 : 200);
      return { success: true as const, signal: signal.signal, changed: outcome.changed, queued: Boolean(outcome.analyse) };
    },
  });
}

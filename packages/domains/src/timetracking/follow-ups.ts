import type { PrismaClient } from "@mw/platform/database";
import type { Queues } from "@mw/platform/queues";
import type { OptionStore } from "../options/index.ts";
import { ticketById, type SignalOutcome, type TicketSignal } from "../tickets/index.ts";
import { projectCreateJob, projectCreateJobId, timerStopOnReplyJob, timerStopOnReplyJobId } from "./jobs.ts";

/**
 * What a ticket-system signal means for time tracking: a staff reply or note
 * ends that staff member's running timer on the ticket (issue 20), and an
 * assignment of a ticket without a project creates one (spec 2, 4.5 rule 4).
 * Both are jobs: they call Harvest.
 */
export async function queueTimeFollowUps(deps: { prisma: PrismaClient; queues: Queues; options: OptionStore }, signal: TicketSignal, outcome: SignalOutcome): Promise<void> {
  if (signal.signal === "threadentry.created" && outcome.analyse && signal.entry.type !== "M" && signal.entry.staff_id) {
    const running = await deps.prisma.timeLog.count({ where: { ticket_id: signal.ticket.id, staff_id: signal.entry.staff_id, is_running: true } });
    if (running) {
      await deps.queues.add(timerStopOnReplyJob, { ticket_id: signal.ticket.id, staff_id: signal.entry.staff_id, thread_entry_id: signal.entry.id }, { jobId: timerStopOnReplyJobId(signal.entry.id) });
    }
  }
  if (signal.signal === "ticket.assigned" && (await deps.options.get("time_api.enabled"))) {
    const ticket = await ticketById(deps, signal.ticket.id);
    if (ticket && ticket.time_project_id === null) await deps.queues.add(projectCreateJob, { ticket_id: signal.ticket.id }, { jobId: projectCreateJobId(signal.ticket.id) });
  }
}

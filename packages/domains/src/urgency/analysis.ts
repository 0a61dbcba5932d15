import { AppError } from "@mw/platform/core";
import { truncateCodePoints } from "@mw/platform/text";
import type { JobRun } from "@mw/platform/queues";
import { entryMessage, type AiService, type AnalysisEntry, type TicketAnalysis, type TicketAnalysisInput } from "../ai/index.ts";
import { levelOf, type UrgencyLevel } from "./engine/index.ts";
import { ticketWithThread, writeAnalysisFields } from "../tickets/index.ts";
import { queueOwedAlerts } from "./alerts.ts";
import { ALERT_CHANNELS } from "./jobs.ts";
import { gateDelayMs, MAX_URGENCY_FAILURES, queueRow, recordAnalysisFailure, type QueueDeps } from "./queue.ts";

/** A failed run is tried again after this, as the cron's next minute would. */
const RETRY_AFTER_FAILURE_MS = 60_000;

interface AnalysisDeps extends QueueDeps, Pick<JobRun, "log" | "delay"> {
  ai: AiService;
}

const LABELS = { M: "Message", R: "Response", N: "Note" } as const;

type TicketWithThread = NonNullable<Awaited<ReturnType<typeof ticketWithThread>>>;

/** Spec 2, 4.7 rule 2: the thread's messages, responses and notes, with the previous urgency (section 3). */
function analysisInput(ticket: TicketWithThread): TicketAnalysisInput {
  const body: AnalysisEntry[] = ticket.entries.map((entry) => ({
    poster_name: entry.poster_name,
    poster_type: entry.poster_type === "Staff" ? "Staff" : "User",
    date: entry.posted_at.toISOString(),
    message: entryMessage(entry),
    is_internal: entry.is_internal,
    entry_label: LABELS[entry.type as keyof typeof LABELS] ?? "Message",
  }));
  const last = body.at(-1);
  return {
    ticket_id: ticket.id,
    subject: ticket.subject,
    body,
    bypass_cache: true,
    customer_type: ticket.customer_type,
    reported_at: ticket.opened_at.toISOString(),
    is_vip: ticket.is_vip,
    previous_percentage: ticket.ai_urgency_percentage,
    previous_level: (ticket.ai_urgency as UrgencyLevel | null) ?? (ticket.ai_urgency_percentage === null ? null : levelOf(ticket.ai_urgency_percentage)),
    last_poster_type: last?.poster_type ?? null,
    last_poster_name: last?.poster_name ?? null,
  };
}

/**
 * Writes one run's result in one transaction: the six fields with the changes
 * feed's row, a snapshot, a history row, the queue row (processed only when
 * no entry arrived after the run started) and, for CRITICAL, the
 * once-per-ticket alert rows. Answers whether the row is done.
 */
async function storeAnalysis({ prisma }: Pick<QueueDeps, "prisma">, ticket: TicketWithThread, analysis: TicketAnalysis, started: Date): Promise<boolean> {
  const estimatedHours = analysis.estimated_hours.toFixed(2);
  return prisma.$transaction(async (tx) => {
    await writeAnalysisFields(tx, ticket.id, {
      ai_urgency: analysis.urgency,
      ai_urgency_percentage: analysis.urgency_percentage,
      ai_estimated_hours: estimatedHours,
      ticket_summary: analysis.summary,
      ai_timeline: analysis.timeline,
      ai_suggested_title: analysis.suggested_title,
    });
    await tx.aiSnapshot.create({
      data: {
        ticket_id: ticket.id,
        urgency: analysis.urgency,
        urgency_percentage: analysis.urgency_percentage,
        estimated_hours: estimatedHours,
        summary: analysis.summary,
        timeline: analysis.timeline,
        suggested_title: truncateCodePoints(analysis.suggested_title, 255),
        model_used: analysis.model_used,
      },
    });
    await tx.aiHistory.create({
      data: {
        ticket_id: ticket.id,
        event: "analysis",
        detail: { urgency: analysis.urgency, urgency_percentage: analysis.urgency_percentage, previous_percentage: ticket.ai_urgency_percentage, capped: analysis.capped, model_used: analysis.model_used, entries: ticket.entries.length },
      },
    });
    const done = await tx.urgencyQueueEntry.updateMany({ where: { ticket_id: ticket.id, queued_at: { lte: started } }, data: { processed: true, failures: 0, analysed_at: started, last_error: null } });
    await tx.urgencyQueueEntry.updateMany({ where: { ticket_id: ticket.id, queued_at: { gt: started } }, data: { analysed_at: started } });
    if (analysis.urgency === "CRITICAL") {
      await tx.aiHistory.createMany({ data: ALERT_CHANNELS.map((channel) => ({ ticket_id: ticket.id, event: "critical_alert", channel, detail: { urgency_percentage: analysis.urgency_percentage } })), skipDuplicates: true });
    }
    return done.count === 1;
  });
}

/**
 * One analysis run (spec 2, 4.7). Idempotent: a row already processed, or
 * skipped after five failures, is left alone; a ticket inside its gate is
 * put back until the gate's end; an entry that arrived during the run gives
 * one more run at the gate's end.
 */
export async function runUrgencyAnalysis(deps: AnalysisDeps, ticketId: number) {
  const { ai, options } = deps;
  const row = await queueRow(deps, ticketId);
  if (!row || row.processed) {
    // A run killed after it stored its result: the alerts it owed still go out.
    await queueOwedAlerts(deps, ticketId);
    return { skipped: row ? "already_processed" : "not_queued" };
  }
  if (row.failures >= MAX_URGENCY_FAILURES) return { skipped: "too_many_failures", failures: row.failures, last_error: row.last_error };
  const wait = gateDelayMs(row.analysed_at, await options.get("urgency_gate_seconds"));
  if (wait > 0) await deps.delay(wait, "inside the urgency gate");

  const started = new Date();
  const ticket = await ticketWithThread(deps, ticketId);
  if (!ticket) return { skipped: "ticket_missing" };
  let analysis: TicketAnalysis;
  try {
    analysis = await ai.analyseTicket(analysisInput(ticket));
  } catch (error) {
    if (!(error instanceof AppError && error.code === "ai_error")) throw error;
    const failures = row.failures + 1;
    await recordAnalysisFailure(deps, row, failures, error.message);
    deps.log.warn("urgency analysis failed", { ticket_id: ticketId, failures, error: error.message });
    if (failures >= MAX_URGENCY_FAILURES) return { skipped: "too_many_failures", failures, last_error: error.message };
    return deps.delay(RETRY_AFTER_FAILURE_MS, `provider failure ${failures} of ${MAX_URGENCY_FAILURES}`);
  }
  const done = await storeAnalysis(deps, ticket, analysis, started);
  deps.log.info("ticket analysed", { ticket_id: ticketId, ticket_number: ticket.number, urgency: analysis.urgency, urgency_percentage: analysis.urgency_percentage, capped: analysis.capped, model_used: analysis.model_used });
  if (analysis.urgency === "CRITICAL") await queueOwedAlerts(deps, ticketId);
  const result = { ticket_number: ticket.number, urgency: analysis.urgency, urgency_percentage: analysis.urgency_percentage, capped: analysis.capped, model_used: analysis.model_used };
  if (!done) {
    await deps.delay(gateDelayMs(started, await options.get("urgency_gate_seconds")), "a thread entry arrived during the run");
  }
  return result;
}

import { retryOnDeadlock } from "@mw/platform/database";
import { applySignal, type SignalOutcome, type SignalSource, type TicketSignal } from "../tickets/index.ts";
import { queueTimeFollowUps } from "../timetracking/index.ts";
import { applyUrgencyLimit, markAnalysisOwed, queueAnalysisJob, type QueueDeps } from "./queue.ts";

/**
 * Takes one ticket-system signal (design 10.1), for the signal endpoint and
 * `pnpm cli tickets:import` alike: the mirror and, for a new thread entry,
 * the owed analysis in one commit (a signal is stored whole or not at all),
 * then the ticket's analysis job and the time-tracking follow-ups. It sits
 * with urgency, not with the mirror, because it reaches urgency and time
 * tracking, which both read the mirror. Without `analyse` (a backfill that
 * asks for none) no analysis is owed.
 */
export async function receiveTicketSignal(deps: QueueDeps, signal: TicketSignal, { analyse = true, source = "signal" }: { analyse?: boolean; source?: SignalSource } = {}): Promise<SignalOutcome & { queued: boolean }> {
  const { outcome, analysedAt } = await retryOnDeadlock(() =>
    deps.prisma.$transaction(async (tx) => {
      const applied = await applySignal(tx, signal, source);
      return { outcome: applied, analysedAt: analyse && applied.analyse ? await markAnalysisOwed(tx, applied.analyse.ticket_id) : null };
    }),
  );
  const owed = analyse ? outcome.analyse : undefined;
  if (owed) {
    await applyUrgencyLimit(deps);
    await queueAnalysisJob(deps, owed.ticket_id, analysedAt);
  }
  await queueTimeFollowUps(deps, signal, outcome);
  return { ...outcome, queued: Boolean(owed) };
}

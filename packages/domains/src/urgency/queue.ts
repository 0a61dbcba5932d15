import type { Prisma, PrismaClient } from "@mw/platform/database";
import { truncateCodePoints } from "@mw/platform/text";
import type { Queues } from "@mw/platform/queues";
import type { OptionStore } from "../options/index.ts";
import { urgencyAnalysisJob, urgencyAnalysisJobId } from "./jobs.ts";

/** Spec 2, 4.7 and section 3: a ticket is skipped after this many failed runs (its row is kept). */
export const MAX_URGENCY_FAILURES = 5;

/** The urgency limiter's window: `urgency_max_per_run` analyses per minute (the cron's "per run"). */
const URGENCY_WINDOW_MS = 60_000;

export interface QueueDeps {
  prisma: PrismaClient;
  queues: Queues;
  options: OptionStore;
}

/**
 * When a ticket's next analysis may run (design 10.8): at once for a ticket
 * not analysed within the gate, else at the gate's end, so a burst of
 * entries gives one trailing run that reads the thread as it is then.
 */
export function gateDelayMs(analysedAt: Date | null, gateSeconds: number, now = Date.now()): number {
  if (!analysedAt) return 0;
  return Math.max(0, analysedAt.getTime() + gateSeconds * 1000 - now);
}

/**
 * Design 10.3 and 10.8: `urgency_max_per_run` analyses per minute across
 * every worker, through the queue's global limiter; applied whenever work is
 * queued and by the sweep, so a changed option holds within a minute.
 */
export async function applyUrgencyLimit(deps: Pick<QueueDeps, "queues" | "options">): Promise<number> {
  const max = await deps.options.get("urgency_max_per_run");
  await deps.queues.get(urgencyAnalysisJob.queue).setGlobalRateLimit(max, URGENCY_WINDOW_MS);
  return max;
}

/** Adds the ticket's job unless it already waits or runs (answers false then); a finished one makes way for the new. */
export async function queueAnalysisJob(deps: Pick<QueueDeps, "queues" | "options">, ticketId: number, analysedAt: Date | null): Promise<boolean> {
  const id = urgencyAnalysisJobId(ticketId);
  const queue = deps.queues.get(urgencyAnalysisJob.queue);
  const existing = await queue.getJob(id);
  if (existing) {
    const state = await existing.getState();
    if (state !== "completed" && state !== "failed" && state !== "unknown") return false;
    await existing.remove().catch(() => undefined);
  }
  const delay = gateDelayMs(analysedAt, await deps.options.get("urgency_gate_seconds"));
  await deps.queues.add(urgencyAnalysisJob, { ticket_id: ticketId }, { jobId: id, delay });
  return true;
}

/**
 * Spec 2, 3: a message, response or note (re)queues the ticket: processed 0,
 * failures 0, and the entry's time, which a run already under way checks
 * before it marks the row processed. Answers when the ticket was last analysed.
 */
export async function markAnalysisOwed(db: Prisma.TransactionClient, ticketId: number): Promise<Date | null> {
  const now = new Date();
  // One statement whoever comes first: two entries of a new ticket may arrive at once.
  await db.$executeRaw`INSERT INTO urgency_queue (ticket_id, processed, failures, queued_at, updated_at) VALUES (${ticketId}, false, 0, ${now}, ${now})
    ON DUPLICATE KEY UPDATE processed = false, failures = 0, queued_at = VALUES(queued_at), last_error = NULL, updated_at = VALUES(updated_at)`;
  // The row as this statement left it: a transaction sees its own writes.
  const row = await db.urgencyQueueEntry.findUniqueOrThrow({ where: { ticket_id: ticketId }, select: { analysed_at: true } });
  return row.analysed_at;
}

/** The ticket's queue row; null when no entry ever asked for an analysis. */
export function queueRow({ prisma }: Pick<QueueDeps, "prisma">, ticketId: number) {
  return prisma.urgencyQueueEntry.findUnique({ where: { ticket_id: ticketId } });
}

/** The rows that still owe an analysis: not processed, under five failures. */
export function owedAnalyses({ prisma }: Pick<QueueDeps, "prisma">) {
  return prisma.urgencyQueueEntry.findMany({ where: { processed: false, failures: { lt: MAX_URGENCY_FAILURES } }, select: { ticket_id: true, analysed_at: true } });
}

/** Counts a failed run on the row's version it started from: a new entry since reset the count, and that stands. */
export async function recordAnalysisFailure({ prisma }: Pick<QueueDeps, "prisma">, row: { ticket_id: number; queued_at: Date }, failures: number, error: string): Promise<void> {
  await prisma.urgencyQueueEntry.updateMany({ where: { ticket_id: row.ticket_id, queued_at: row.queued_at }, data: { failures, last_error: truncateCodePoints(error, 500) } });
}

import { AppError, errors, MAX_JSON_DEPTH, nestedDeeperThan, type PrismaClient } from "@mw/platform";

/** What a webhook receiver answers: 202 stored (and queued), 200 for a delivery that needs nothing more. */
export type WebhookAnswer =
  | { status: 202; body: { success: true; message: string; webhook_id: number } }
  | { status: 200; body: { success: true; message: string } };

/** A webhook body must be a JSON object: blank is 400 `empty_payload`, anything else 400 `invalid_json` (spec 1, 4.5). */
export function parseWebhookPayload(text: string): Record<string, unknown> {
  if (text.trim() === "") throw new AppError(400, "empty_payload", "Empty payload.");
  if (nestedDeeperThan(text)) throw new AppError(400, "invalid_json", `The payload is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError(400, "invalid_json", "The payload is not valid JSON.");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new AppError(400, "invalid_json", "The payload must be a JSON object.");
  }
  return parsed as Record<string, unknown>;
}

export function webhookDbError(cause: unknown): AppError {
  return new AppError(500, "db_error", "The webhook could not be stored: database error.", {}, { cause });
}

export function webhookQueueError(cause: unknown): AppError {
  return errors.queueUnavailable("The webhook was stored but could not be queued", cause);
}

/** Younger unprocessed rows may still be getting their job from the receiver that stored them. */
const OUTBOX_GRACE_MS = 30_000;
/** Older unprocessed rows are past automatic recovery: an operator replays them. */
const OUTBOX_HORIZON_MS = 24 * 3600_000;

/**
 * The rows of one source an outbox sweep (design section 3) looks at: not
 * processed yet, received between 24 hours and 30 seconds ago.
 */
export function strandedWebhooks(source: "acquirer" | "products", now = Date.now()) {
  return { source, processed_at: null, received_at: { gte: new Date(now - OUTBOX_HORIZON_MS), lt: new Date(now - OUTBOX_GRACE_MS) } };
}

export const OUTBOX_SOURCES = ["acquirer", "products"] as const;

/**
 * Unprocessed rows past the sweep's horizon, per source: no sweep will touch
 * them again, so they are counted (on /metrics and in the sweep's log) for an
 * operator to replay, never silently left.
 */
export async function countAbandonedWebhooks(prisma: PrismaClient, now = Date.now()): Promise<Record<(typeof OUTBOX_SOURCES)[number], number>> {
  const groups = await prisma.webhookEvent.groupBy({
    by: ["source"],
    where: { source: { in: [...OUTBOX_SOURCES] }, processed_at: null, received_at: { lt: new Date(now - OUTBOX_HORIZON_MS) } },
    _count: { _all: true },
  });
  const counts = { acquirer: 0, products: 0 };
  for (const group of groups) counts[group.source as keyof typeof counts] = group._count._all;
  return counts;
}

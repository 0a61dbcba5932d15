import { GroupInsert, isUniqueViolation, type Logger, type PrismaClient, type Queues, sha256Hex, type SqlPool, truncateCodePoints } from "@mw/platform";
import { parseWebhookPayload, webhookDbError as dbError, webhookQueueError as queueError, type WebhookAnswer } from "../webhooks/index.ts";
import { acquirerEventId } from "./event-id.ts";
import { queueDispute } from "./outbox.ts";

interface Deps {
  prisma: PrismaClient;
  sql: SqlPool;
  queues: Queues;
  logger: Logger;
}

const INSERT_EVENT =
  "INSERT INTO webhook_events (source, event_type, event_id, payload, payload_hash, remote_addr, received_at) VALUES ('acquirer', ?, ?, ?, ?, ?, NOW(3))";

/** One group-commit writer per pool: deliveries that arrive together share a commit (see GroupInsert). */
const writers = new WeakMap<SqlPool, GroupInsert>();
function eventWriter(sql: SqlPool): GroupInsert {
  let writer = writers.get(sql);
  if (!writer) {
    writer = new GroupInsert(sql, INSERT_EVENT, { concurrency: 2, maxBatch: 100 });
    writers.set(sql, writer);
  }
  return writer;
}

/**
 * POST /webhooks/acquirer (spec 1, 4.5) with the outbox of design section 3:
 * the audit row is committed first, then its job is added, then 202. A crash
 * between the two leaves an unprocessed row without a job, which the sweeper
 * (and a redelivery of the event) queues. A repeated event answers 200.
 */
export async function receiveAcquirerWebhook(deps: Deps, raw: Buffer, remoteAddr: string | undefined): Promise<WebhookAnswer> {
  const text = raw.toString("utf8");
  const payload = parseWebhookPayload(text);
  const eventId = acquirerEventId(payload);
  const eventType = typeof payload.event_type === "string" ? truncateCodePoints(payload.event_type, 100) : null;
  let id: number;
  try {
    id = await eventWriter(deps.sql).insert([eventType, eventId, text, sha256Hex(raw), remoteAddr?.slice(0, 45) ?? null]);
  } catch (error) {
    if (!isUniqueViolation(error)) throw dbError(error);
    return redelivered(deps, eventId!);
  }
  try {
    await queueDispute(deps.queues, { id, event_id: eventId });
  } catch (error) {
    throw queueError(error);
  }
  deps.logger.debug("acquirer webhook queued", { webhook_id: id, event_id: eventId, event_type: eventType });
  return { status: 202, body: { success: true, message: "Webhook received and queued for processing.", webhook_id: id } };
}

async function redelivered(deps: Deps, eventId: string): Promise<WebhookAnswer> {
  let row: { id: number; event_id: string | null; processed_at: Date | null } | null;
  try {
    row = await deps.prisma.webhookEvent.findUnique({ where: { event_id: eventId }, select: { id: true, event_id: true, processed_at: true } });
  } catch (error) {
    throw dbError(error);
  }
  // Not processed yet: make sure its job exists (a no-op when it does), in case the first delivery crashed before adding it.
  if (row && !row.processed_at) {
    try {
      await queueDispute(deps.queues, row);
    } catch (error) {
      throw queueError(error);
    }
  }
  deps.logger.info("acquirer webhook already received", { event_id: eventId, webhook_id: row?.id });
  return { status: 200, body: { success: true, message: "Event already received." } };
}

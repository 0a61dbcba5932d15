import { errors } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import { isUniqueViolation } from "@mw/platform/database";
import { sha256Hex } from "@mw/platform/crypto";
import { truncateCodePoints } from "@mw/platform/text";
import type { Connections } from "@mw/platform/connections";
import { findWebhookEvent, parseWebhookPayload, storeAcquirerEvent, webhookDbError as dbError, webhookQueueError as queueError } from "../webhooks/index.ts";
import { acquirerSignatureValid } from "./acquirer-signature.ts";
import { acquirerEventId } from "./event-id.ts";
import { checkAcquirerFieldLengths } from "./field-limits.ts";
import { queueDispute } from "./inbox.ts";

type Deps = Pick<Connections, "prisma" | "sql" | "queues" | "logger">;
type ReceiveDeps = Deps & { config: Pick<Config, "ACQUIRER_SIGNING_KEY"> };

/** What became of a delivery: stored and its job queued, or a repeat of an event already stored. */
type AcquirerDelivery = { outcome: "queued"; webhookId: number } | { outcome: "already_received" };

/**
 * POST /webhooks/acquirer (spec 1, 4.5) with the outbox of design section 3:
 * the audit row is committed first, then its job is added. A crash between
 * the two leaves an unprocessed row without a job, which the sweeper (and a
 * redelivery of the event) queues. With ACQUIRER_SIGNING_KEY set, a delivery
 * without a valid `Webhook-Signature` is refused first (401), and members too
 * long for their columns next (400): neither reaches the database.
 */
export async function receiveAcquirerWebhook(deps: ReceiveDeps, raw: Buffer, remoteAddr: string | undefined, signature: string | undefined): Promise<AcquirerDelivery> {
  const signingKey = deps.config.ACQUIRER_SIGNING_KEY;
  if (signingKey && !acquirerSignatureValid(signingKey, signature, raw)) {
    deps.logger.warn("acquirer webhook refused", { reason: signature ? "wrong signature" : "no signature", remote_addr: remoteAddr });
    throw errors.unauthorized("Invalid or missing webhook signature.");
  }
  const text = raw.toString("utf8");
  const payload = parseWebhookPayload(text);
  checkAcquirerFieldLengths(payload);
  const eventId = acquirerEventId(payload);
  const eventType = typeof payload.event_type === "string" ? truncateCodePoints(payload.event_type, 100) : null;
  let id: number;
  try {
    id = await storeAcquirerEvent(deps, { event_type: eventType, event_id: eventId, payload: text, payload_hash: sha256Hex(raw), remote_addr: remoteAddr?.slice(0, 45) ?? null });
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
  return { outcome: "queued", webhookId: id };
}

async function redelivered(deps: Deps, eventId: string): Promise<AcquirerDelivery> {
  let row: { id: number; event_id: string | null; processed_at: Date | null } | null;
  try {
    row = await findWebhookEvent(deps, eventId);
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
  return { outcome: "already_received" };
}

import type { IncomingHttpHeaders } from "node:http";
import { errors } from "@mw/platform/core";
import { isUniqueViolation } from "@mw/platform/database";
import { decryptSecret, sha256Hex } from "@mw/platform/crypto";
import type { Connections } from "@mw/platform/connections";
import { findWebhookSite, inventorySyncEnabled } from "../../sites/index.ts";
import { findWebhookEvent, markWebhookProcessed, parseWebhookPayload, storeProductEvent, webhookDbError, webhookQueueError } from "../../webhooks/index.ts";
import { describeProductEvent, type ProductEvent } from "./event.ts";
import { queueProductRefresh } from "./inbox.ts";
import { isWooPing, verifyProductWebhook } from "./signature.ts";

type Deps = Pick<Connections, "prisma" | "queues" | "logger"> & { config: { ENCRYPTION_KEY: Buffer } };

/** What the receiver did with a stored event (`webhook_events.outcome`). */
export type ProductEventOutcome = "refresh" | "ignored" | "sync_off";

function outcomeOf(event: ProductEvent, site: { is_active: boolean; inventory_sync: boolean }): ProductEventOutcome {
  if (event.product_id === null || event.deleted) return "ignored";
  return inventorySyncEnabled(site) ? "refresh" : "sync_off";
}

/** What became of a delivery: a WooCommerce ping, stored (with what it asked for), or a repeat of an event already stored. */
type ProductDelivery = { outcome: "ping" } | { outcome: "stored"; webhookId: number; event: ProductEventOutcome } | { outcome: "already_received" };

/**
 * POST /webhooks/products/{site_id} (spec 1, 4.10): checks the delivery
 * against the site's webhook secret, stores it (`webhook_events`, source
 * `products`) and queues an inventory refresh of the product it names.
 * Outbox (design section 3): a `refresh` row is stored unprocessed and
 * marked once its job is in Redis; one left unmarked (Redis refused the job:
 * 503) is queued by the sweep or by a redelivery. Other rows need nothing
 * more and are processed when stored.
 */
export async function receiveProductWebhook(
  deps: Deps,
  siteId: number,
  raw: Buffer,
  headers: IncomingHttpHeaders,
  remoteAddr: string | undefined,
): Promise<ProductDelivery> {
  const site = await findWebhookSite(deps, siteId);
  if (!site) throw errors.notFound("Site not found.");
  if (site.platform === "storefront_b" && isWooPing(raw)) {
    deps.logger.info("product webhook ping", { site_id: site.id, body: raw.toString("utf8").trim() });
    return { outcome: "ping" };
  }
  const secret = site.webhook_secret ? decryptSecret(site.webhook_secret, deps.config.ENCRYPTION_KEY) : null;
  if (!secret || !verifyProductWebhook(site.platform, raw, headers, secret)) {
    deps.logger.warn("product webhook refused", {
      site_id: site.id,
      reason: secret ? "bad or missing signature" : "the site has no webhook secret",
      remote_addr: remoteAddr,
    });
    throw errors.unauthorized("Invalid or missing webhook signature.");
  }

  const text = raw.toString("utf8");
  const payload = parseWebhookPayload(text);
  const event = describeProductEvent(payload, headers);
  const payloadHash = sha256Hex(raw);
  // WooCommerce's delivery id is a hash of the hook id and the current second, shared by every delivery of
  // that second; with the body's hash it names one delivery, which is what a redelivery repeats.
  const eventId = event.delivery_id ? `products_${site.id}_${event.delivery_id}_${payloadHash.slice(0, 16)}` : null;
  const outcome = outcomeOf(event, site);
  let id: number;
  try {
    id = await storeProductEvent(deps, {
      site_id: site.id,
      event_type: event.event_type,
      event_id: eventId,
      payload: text,
      payload_hash: payloadHash,
      remote_addr: remoteAddr?.slice(0, 45) ?? null,
      processed_at: outcome === "refresh" ? null : new Date(),
      outcome,
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw webhookDbError(error);
    return redelivered(deps, site.id, eventId!, event);
  }
  if (outcome === "refresh") await refresh(deps, site.id, event.product_id!, id);
  deps.logger.info("product webhook received", { site_id: site.id, webhook_id: id, event_type: event.event_type, product_id: event.product_id, outcome });
  return { outcome: "stored", webhookId: id, event: outcome };
}

/** Queues the row's refresh, then marks it processed; a failed mark only leaves the sweep a refresh to re-add (a no-op). */
async function refresh(deps: Deps, siteId: number, productId: string, webhookId: number): Promise<void> {
  try {
    await queueProductRefresh(deps.queues, siteId, productId, webhookId);
  } catch (error) {
    throw webhookQueueError(error);
  }
  await markWebhookProcessed(deps, webhookId).catch((error: unknown) =>
    deps.logger.warn("product webhook queued but not marked processed; the inbox sweep will", { webhook_id: webhookId, error }),
  );
}

async function redelivered(deps: Deps, siteId: number, eventId: string, event: ProductEvent): Promise<ProductDelivery> {
  let row: { id: number; processed_at: Date | null; outcome: string | null } | null;
  try {
    row = await findWebhookEvent(deps, eventId);
  } catch (error) {
    throw webhookDbError(error);
  }
  // The first delivery was stored but its refresh not queued (a 503): queue it now rather than wait for the sweep.
  if (row && row.outcome === "refresh" && !row.processed_at) await refresh(deps, siteId, event.product_id!, row.id);
  deps.logger.info("product webhook already received", { site_id: siteId, event_id: eventId, webhook_id: row?.id });
  return { outcome: "already_received" };
}

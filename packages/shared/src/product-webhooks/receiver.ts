import type { IncomingHttpHeaders } from "node:http";
import { decryptSecret, sha256Hex } from "../crypto.ts";
import { isUniqueViolation, type PrismaClient } from "../db.ts";
import { errors } from "../errors.ts";
import type { Logger } from "../logger.ts";
import { jobId, type Queues } from "../queues.ts";
import { parseWebhookPayload, webhookDbError, webhookQueueError, type WebhookAnswer } from "../webhook-intake.ts";
import { describeProductEvent, type ProductEvent } from "./event.ts";
import { isWooPing, verifyProductWebhook } from "./signature.ts";
import { inventorySyncEnabled } from "../sites/sync-gates.ts";

interface Deps {
  prisma: PrismaClient;
  queues: Queues;
  logger: Logger;
  config: { ENCRYPTION_KEY: Buffer };
}

/** What the receiver did with a stored event (`webhook_events.outcome`). */
type Outcome = "refresh" | "ignored" | "sync_off";

/**
 * The stock refresh of one product. One waits at a time per product: a burst
 * of webhooks is absorbed by the waiting job, and a change that arrives while
 * it runs gets one follow-up that starts when it ends (BullMQ deduplication
 * with keepLastIfActive), so no change is missed and none is synced twice over.
 */
export async function queueProductRefresh(queues: Queues, siteId: number, productId: string, webhookId: number): Promise<string> {
  const key = jobId("inventory-sync", siteId, "product", productId);
  const job = await queues.add(
    "inventory",
    "inventory-sync",
    { site_id: siteId, product_ids: [productId] },
    { jobId: jobId(key, "webhook", webhookId), deduplication: { id: key, keepLastIfActive: true } },
  );
  return job.id!;
}

function outcomeOf(event: ProductEvent, site: { is_active: boolean; inventory_sync: boolean }): Outcome {
  if (event.product_id === null || event.deleted) return "ignored";
  return inventorySyncEnabled(site) ? "refresh" : "sync_off";
}

const MESSAGES: Record<Outcome, string> = {
  refresh: "Webhook received; the product's stock refresh is queued.",
  ignored: "Webhook received; it names no product whose stock needs a refresh.",
  sync_off: "Webhook received; the site does not sync inventory, so nothing was queued.",
};

/**
 * POST /webhooks/products/{site_id} (spec 1, 4.10): checks the delivery
 * against the site's webhook secret, stores it (`webhook_events`, source
 * `products`) and queues an inventory refresh of the product it names.
 * The row is complete once stored (`processed_at` = receipt), so the
 * acquirer outbox never looks at it; a platform redelivery after a failed
 * enqueue queues the refresh again.
 */
export async function receiveProductWebhook(
  deps: Deps,
  siteId: number,
  raw: Buffer,
  headers: IncomingHttpHeaders,
  remoteAddr: string | undefined,
): Promise<WebhookAnswer> {
  const site = await deps.prisma.site.findUnique({
    where: { id: siteId },
    select: { id: true, platform: true, webhook_secret: true, is_active: true, inventory_sync: true },
  });
  if (!site) throw errors.notFound("Site not found.");
  if (site.platform === "storefront_b" && isWooPing(raw)) {
    deps.logger.info("product webhook ping", { site_id: site.id, body: raw.toString("utf8").trim() });
    return { status: 200, body: { success: true, message: "Webhook ping received." } };
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
    const row = await deps.prisma.webhookEvent.create({
      data: {
        source: "products",
        site_id: site.id,
        event_type: event.event_type,
        event_id: eventId,
        payload: text,
        payload_hash: payloadHash,
        remote_addr: remoteAddr?.slice(0, 45) ?? null,
        processed_at: new Date(),
        outcome,
      },
      select: { id: true },
    });
    id = row.id;
  } catch (error) {
    if (!isUniqueViolation(error)) throw webhookDbError(error);
    return redelivered(deps, site.id, eventId!, event, outcome);
  }
  if (outcome === "refresh") {
    try {
      await queueProductRefresh(deps.queues, site.id, event.product_id!, id);
    } catch (error) {
      throw webhookQueueError(error);
    }
  }
  deps.logger.info("product webhook received", { site_id: site.id, webhook_id: id, event_type: event.event_type, product_id: event.product_id, outcome });
  return { status: 202, body: { success: true, message: MESSAGES[outcome], webhook_id: id } };
}

async function redelivered(deps: Deps, siteId: number, eventId: string, event: ProductEvent, outcome: Outcome): Promise<WebhookAnswer> {
  let row: { id: number } | null;
  try {
    row = await deps.prisma.webhookEvent.findUnique({ where: { event_id: eventId }, select: { id: true } });
  } catch (error) {
    throw webhookDbError(error);
  }
  // The first delivery may have been stored but not queued (a 503); a refresh already waiting absorbs this one.
  if (row && outcome === "refresh") {
    try {
      await queueProductRefresh(deps.queues, siteId, event.product_id!, row.id);
    } catch (error) {
      throw webhookQueueError(error);
    }
  }
  deps.logger.info("product webhook already received", { site_id: siteId, event_id: eventId, webhook_id: row?.id });
  return { status: 200, body: { success: true, message: "Event already received." } };
}

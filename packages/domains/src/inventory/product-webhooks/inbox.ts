import type { Queues } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { markWebhookProcessed, strandedProductEvents } from "../../webhooks/index.ts";
import { inventorySyncJob, productRefreshJobId, productRefreshKey } from "../jobs.ts";
import { productIdOf } from "./event.ts";

/**
 * The stock refresh of one product. One waits at a time per product: a burst
 * of webhooks is absorbed by the waiting job, and a change that arrives while
 * it runs gets one follow-up that starts when it ends (BullMQ deduplication
 * with keepLastIfActive), so no change is missed and none is synced twice over.
 */
export async function queueProductRefresh(queues: Queues, siteId: number, productId: string, webhookId: number): Promise<string> {
  const job = await queues.add(
    inventorySyncJob,
    { site_id: siteId, product_ids: [productId] },
    { jobId: productRefreshJobId(siteId, productId, webhookId), deduplication: { id: productRefreshKey(siteId, productId), keepLastIfActive: true } },
  );
  return job.id!;
}

/**
 * The product half of the inbox sweep: a `refresh` row still unprocessed
 * past the grace period lost its job (Redis refused it, or the receiver
 * stopped between the two writes), and the storefronts do not redeliver a
 * webhook they were answered 503 for. Queues the refresh again (a no-op for
 * one that did reach Redis) and marks the row: a `refresh` row is processed
 * once its refresh is in Redis, whoever added it. Answers how many rows.
 */
export async function sweepProductInbox(deps: Pick<Connections, "prisma" | "queues">, limit = 1000): Promise<number> {
  const rows = await strandedProductEvents(deps, "refresh", limit);
  for (const row of rows) {
    // The receiver stored the row as a refresh because its JSON object names a product of a site.
    const productId = productIdOf(JSON.parse(row.payload) as Record<string, unknown>)!;
    await queueProductRefresh(deps.queues, row.site_id!, productId, row.id);
    await markWebhookProcessed(deps, row.id);
  }
  return rows.length;
}

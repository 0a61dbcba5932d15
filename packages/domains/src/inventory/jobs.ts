import { z } from "zod";
import { defineJob, jobId } from "@mw/platform/queues";

/**
 * ERP stock levels to one site's storefront (spec 1, 4.8). `product_ids`
 * (storefront product ids, from a product webhook) limits the run to those
 * products; absent means the full catalogue.
 */
export const inventorySyncJob = defineJob({
  queue: "inventory",
  name: "inventory-sync",
  payload: z.object({
    site_id: z.number().int().positive(),
    product_ids: z.array(z.string().min(1).max(64)).min(1).max(1000).optional(),
  }),
});

/** A full sync is waiting or running for the site: the hourly sweep adds no second one behind it. */
export const scheduledInventorySyncKey = (siteId: number) => jobId("inventory-sync", siteId, "scheduled");

/** The hourly full sync of one site, named after the period it belongs to. */
export const scheduledInventorySyncJobId = (siteId: number, periodStart: number) => jobId("inventory-sync", siteId, "scheduled", periodStart);

/** A full sync asked for through the inventory test endpoint. */
export const testInventorySyncJobId = (siteId: number, at: number) => jobId("inventory-sync", siteId, "test", at);

/** One product's refresh waits at a time (the deduplication key of its jobs). */
export const productRefreshKey = (siteId: number, productId: string) => jobId("inventory-sync", siteId, "product", productId);

/** The refresh a product webhook asked for. */
export const productRefreshJobId = (siteId: number, productId: string, webhookId: number) => jobId(productRefreshKey(siteId, productId), "webhook", webhookId);

/** Hourly, at the top of the hour (the period its job ids name): a full sync of every site that syncs inventory. */
export const inventorySweepJob = defineJob({ queue: "inventory", name: "inventory-sweep", payload: z.object({}), schedule: { pattern: "0 * * * *" } });

/** Nightly, after the history cleanup: catalogue SKUs the ERP dropped (a dry-run count is logged first). */
export const inventorySkuCleanupJob = defineJob({ queue: "inventory", name: "inventory-sku-cleanup", payload: z.object({}), schedule: { pattern: "0 4 * * *" } });

/** Nightly, at quiet hours: item_history rows older than 3 days. */
export const itemHistoryCleanupJob = defineJob({ queue: "inventory", name: "item-history-cleanup", payload: z.object({}), schedule: { pattern: "30 3 * * *" } });

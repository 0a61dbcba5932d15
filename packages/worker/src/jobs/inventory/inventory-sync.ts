import { cleanUpCatalogueSkus, cleanUpItemHistory, runInventorySync, type inventorySkuCleanupJob, type inventorySyncJob, type itemHistoryCleanupJob } from "@mw/domains/inventory";
import { skusOfPendingOrders } from "@mw/domains/orders";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import { syncJobOf } from "../../runtime/attempts.ts";
import type { JobContext } from "../../runtime/processor.ts";

/** `inventory-sync`: ERP stock onto one site's storefront (all of it, or the products a webhook named). */
export async function inventorySync(job: Job, payload: PayloadOf<typeof inventorySyncJob>, { prisma, queues, config, redis, log, progress }: Pick<JobContext, "prisma" | "queues" | "config" | "redis" | "log" | "progress">) {
  return runInventorySync({ prisma, queues, config, redis, log, progress }, syncJobOf(job), payload.site_id, payload.product_ids);
}

/** `inventory-sku-cleanup`: catalogue items the ERP no longer has go. */
export async function inventorySkuCleanup(_job: Job, _payload: PayloadOf<typeof inventorySkuCleanupJob>, { prisma, config, redis, invalidation, log }: Pick<JobContext, "prisma" | "config" | "redis" | "invalidation" | "log">) {
  return cleanUpCatalogueSkus({ prisma, config, redis, invalidation, log, stillOrdered: (skus) => skusOfPendingOrders({ prisma }, skus) });
}

/** `item-history-cleanup`: item history past RETENTION_ITEM_HISTORY_DAYS goes. */
export async function itemHistoryCleanup(_job: Job, _payload: PayloadOf<typeof itemHistoryCleanupJob>, { prisma, config, log }: Pick<JobContext, "prisma" | "config" | "log">) {
  return cleanUpItemHistory({ prisma, config, log });
}

import {
  CATALOGUE_SHRANK,
  catalogueItems,
  deleteItemHistoryBefore,
  deleteItems,
  recordInventorySyncFailure,
  type inventorySkuCleanupJob,
  type inventorySyncJob,
  type itemHistoryCleanupJob,
} from "@mw/domains/inventory";
import { AppError, type PayloadOf } from "@mw/platform";
import { skusOfPendingOrders } from "@mw/domains/orders";
import { ErpClient } from "@mw/providers/erp";
import { markLastRun, startSiteSync } from "@mw/domains/sites";
import type { Job } from "bullmq";
import { endsJob } from "../../runtime/attempts.ts";
import { InventoryRun } from "./run.ts";
import type { JobContext } from "../../runtime/processor.ts";

const DAY_MS = 86_400_000;
/** Spec 1, section 8: item history is kept 3 days. */
const HISTORY_DAYS = 3;

/**
 * `inventory-sync` (spec 1, 4.8): ERP stock onto one site's storefront. The
 * site is read again, so a job queued before the site was disabled or
 * deleted ends quietly. Each run writes a `sync_runs` row; a full run that
 * set every item updates `inventory_last_run`. Items the storefront refuses
 * do not stop the others; the run then fails (once, no retry) naming them.
 * Setting absolute stock is idempotent, so a retried run is harmless.
 */
export async function inventorySync(job: Job, payload: PayloadOf<typeof inventorySyncJob>, ctx: JobContext) {
  const log = ctx.log.child({ site_id: payload.site_id });
  const sync = await startSiteSync(ctx, "inventory", payload.site_id, job.id, log);
  if ("skipped" in sync) return sync;
  const { site, runId } = sync;
  const run = new InventoryRun(site, ctx, log.child({ run_id: runId }), payload.product_ids);
  try {
    const { unknown_to_erp } = await run.execute();
    if (run.failures.length) {
      const first = run.failures[0]!;
      throw AppError.permanent(`inventory sync of site ${site.id}: ${run.failures.length} of ${run.counts.items} items failed (first: ${first.sku}: ${first.message})`, "inventory_incomplete");
    }
    await sync.finish(run.counts, { erpAnswered: run.erpAnswered });
    if (!payload.product_ids) await markLastRun(ctx, site.id, "inventory", new Date());
    log.info("inventory sync finished", { ...run.counts, unknown_to_erp, products: payload.product_ids?.length ?? "all" });
    return { run_id: runId, counts: run.counts, unknown_to_erp };
  } catch (error) {
    await sync.fail(run.counts, error);
    if (endsJob(job, error)) {
      await recordInventorySyncFailure(ctx, site.id, (error as Error).message).catch((record: unknown) => log.error("could not record the inventory sync failure", { error: (record as Error).message }));
    }
    throw error;
  }
}

/**
 * `inventory-sku-cleanup`: removes catalogue items (the `items` table that
 * order intake checks SKUs against) whose SKU the ERP no longer has. It logs
 * what it would remove first (the dry-run count), then removes it. Nothing
 * refers to `items` by key (order lines keep the SKU as text), but an item
 * still named by an order that is not exported yet is kept, so a resubmission
 * of that order is not refused for an unknown SKU. An ERP that lists no items
 * at all is taken as a fault, never as "delete the catalogue".
 */
export async function inventorySkuCleanup(_job: Job, _payload: PayloadOf<typeof inventorySkuCleanupJob>, ctx: JobContext) {
  const erp = ErpClient.fromConfig(ctx.config, ctx.redis);
  if (!erp) {
    ctx.log.info("ERP is not configured, SKU cleanup skipped");
    return { skipped: "erp_not_configured" };
  }
  const erpSkus = new Set((await erp.listItems()).map((item) => item.number.toLowerCase()));
  if (erpSkus.size === 0) throw AppError.permanent("SKU cleanup refused: the ERP lists no items, so the catalogue is left as it is", "erp_catalogue_empty");
  const catalogue = await catalogueItems(ctx);
  const missing = catalogue.filter((item) => !erpSkus.has(item.sku.toLowerCase()));
  const pending = await skusOfPendingOrders(ctx, missing.map((item) => item.sku));
  const doomed = missing.filter((item) => !pending.has(item.sku.toLowerCase()));
  const summary = { catalogue: catalogue.length, erp_items: erpSkus.size, not_in_erp: missing.length, kept_for_pending_orders: missing.length - doomed.length };
  ctx.log.info("SKU cleanup dry run", { ...summary, to_delete: doomed.length, sample: doomed.slice(0, 20).map((item) => item.sku) });
  const deleted = await deleteItems(ctx, doomed.map((item) => item.id));
  // Every process forgets the SKUs it knew, so an order naming a removed item is refused at once.
  // Also when nothing was removed: a retry after a failed publish must still send it.
  await ctx.invalidation.publish(CATALOGUE_SHRANK);
  ctx.log.info("SKU cleanup removed catalogue items the ERP no longer has", { deleted });
  return { ...summary, deleted };
}

/** Nightly (spec 1, section 8): item history older than 3 days goes. */
export async function itemHistoryCleanup(_job: Job, _payload: PayloadOf<typeof itemHistoryCleanupJob>, ctx: JobContext) {
  const cutoff = new Date(Date.now() - HISTORY_DAYS * DAY_MS);
  const deleted = await deleteItemHistoryBefore(ctx, cutoff);
  ctx.log.info("item history older than 3 days removed", { deleted, cutoff: cutoff.toISOString() });
  return { deleted };
}

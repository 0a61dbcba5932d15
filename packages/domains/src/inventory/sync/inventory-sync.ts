import { AppError } from "@mw/platform/core";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { markLastRun, startSiteSync, type SyncJob } from "../../sites/index.ts";
import { recordInventorySyncFailure } from "../sync-failures.ts";
import { InventoryRun, type InventoryRunDeps } from "./run.ts";

/**
 * `inventory-sync` (spec 1, 4.8): ERP stock onto one site's storefront. The
 * site is read again, so a job queued before the site was disabled or
 * deleted ends quietly. Each run writes a `sync_runs` row; a full run that
 * set every item updates `inventory_last_run`. Items the storefront refuses
 * do not stop the others; the run then fails (once, no retry) naming them.
 * Setting absolute stock is idempotent, so a retried run is harmless.
 * `productIds` (from a product webhook) limits the run to those storefront products.
 */
export async function runInventorySync(deps: InventoryRunDeps & Pick<Connections, "queues"> & Pick<JobRun, "log">, job: SyncJob, siteId: number, productIds?: string[]) {
  const log = deps.log.child({ site_id: siteId });
  const sync = await startSiteSync(deps, "inventory", siteId, job.id, log);
  if ("skipped" in sync) return sync;
  const { site, runId } = sync;
  const run = new InventoryRun(site, deps, log.child({ run_id: runId }), productIds);
  try {
    const { unknown_to_erp } = await run.execute();
    if (run.failures.length) {
      const first = run.failures[0]!;
      throw AppError.permanent(`inventory sync of site ${site.id}: ${run.failures.length} of ${run.counts.items} items failed (first: ${first.sku}: ${first.message})`, "inventory_incomplete");
    }
    await sync.finish(run.counts, { erpAnswered: run.erpAnswered });
    if (!productIds) await markLastRun(deps, site.id, "inventory", new Date());
    log.info("inventory sync finished", { ...run.counts, unknown_to_erp, products: productIds?.length ?? "all" });
    return { run_id: runId, counts: run.counts, unknown_to_erp };
  } catch (error) {
    await sync.fail(run.counts, error);
    if (job.ends(error)) {
      await recordInventorySyncFailure(deps, site.id, (error as Error).message).catch((record: unknown) => log.error("could not record the inventory sync failure", { error: (record as Error).message }));
    }
    throw error;
  }
}

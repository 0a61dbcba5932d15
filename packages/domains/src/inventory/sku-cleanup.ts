import { AppError } from "@mw/platform/core";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { ErpClient } from "@mw/providers/erp";
import { catalogueItems, deleteItems } from "./items.ts";
import { CATALOGUE_SHRANK } from "./known-skus.ts";

/**
 * `inventory-sku-cleanup`: removes catalogue items (the `items` table that
 * order intake checks SKUs against) whose SKU the ERP no longer has. It logs
 * what it would remove first (the dry-run count), then removes it. Nothing
 * refers to `items` by key (order lines keep the SKU as text), but an item
 * still named by an order that is not exported yet is kept, so a resubmission
 * of that order is not refused for an unknown SKU. An ERP that lists no items
 * at all is taken as a fault, never as "delete the catalogue".
 *
 * Which SKUs pending orders still name is the orders domain's to answer, and
 * orders checks SKUs against this catalogue: the caller hands that answer in
 * (`stillOrdered`), so the two domains do not import each other.
 */
export async function cleanUpCatalogueSkus(
  deps: Pick<Connections, "prisma" | "config" | "redis" | "invalidation"> & Pick<JobRun, "log"> & { stillOrdered: (skus: string[]) => Promise<Set<string>> },
) {
  const erp = ErpClient.fromConfig(deps.config, deps.redis);
  if (!erp) {
    deps.log.info("ERP is not configured, SKU cleanup skipped");
    return { skipped: "erp_not_configured" };
  }
  const erpSkus = new Set((await erp.listItems()).map((item) => item.number.toLowerCase()));
  if (erpSkus.size === 0) throw AppError.permanent("SKU cleanup refused: the ERP lists no items, so the catalogue is left as it is", "erp_catalogue_empty");
  const catalogue = await catalogueItems(deps);
  const missing = catalogue.filter((item) => !erpSkus.has(item.sku.toLowerCase()));
  const pending = await deps.stillOrdered(missing.map((item) => item.sku));
  const doomed = missing.filter((item) => !pending.has(item.sku.toLowerCase()));
  const summary = { catalogue: catalogue.length, erp_items: erpSkus.size, not_in_erp: missing.length, kept_for_pending_orders: missing.length - doomed.length };
  deps.log.info("SKU cleanup dry run", { ...summary, to_delete: doomed.length, sample: doomed.slice(0, 20).map((item) => item.sku) });
  const deleted = await deleteItems(deps, doomed.map((item) => item.id));
  // Every process forgets the SKUs it knew, so an order naming a removed item is refused at once.
  // Also when nothing was removed: a retry after a failed publish must still send it.
  await deps.invalidation.publish(CATALOGUE_SHRANK);
  deps.log.info("SKU cleanup removed catalogue items the ERP no longer has", { deleted });
  return { ...summary, deleted };
}

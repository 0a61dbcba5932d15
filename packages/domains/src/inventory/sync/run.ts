import type { Logger } from "@mw/platform/logging";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { recordItemHistory } from "../item-history.ts";
import { ErpClient, erpNotConfigured } from "@mw/providers/erp";
import type { InventoryCounts, Site } from "../../sites/index.ts";
import { openInventoryStorefront } from "./open-storefront.ts";
import type { StockChange, StockUnit } from "./storefront.ts";

/** What an inventory run uses: the database, the ERP (its token is cached in Redis), and the job's progress. */
export type InventoryRunDeps = Pick<Connections, "prisma" | "config" | "redis"> & Pick<JobRun, "progress">;

interface ItemFailure {
  sku: string;
  message: string;
}

/**
 * One inventory sync of one site (spec 1, 4.8): ERP stock levels onto the
 * storefront's stock-tracked products and variants, matched by SKU
 * (case-insensitive). Only items whose stock differs are written; each gets
 * an `item_history` row as soon as the storefront has taken it. `productIds` (from a product webhook) limits the run
 * to those storefront products.
 */
export class InventoryRun {
  readonly counts: InventoryCounts = { items: 0, pushed: 0, forced_zero: 0, not_on_storefront: 0, errors: 0 };
  readonly failures: ItemFailure[] = [];
  private erp: ErpClient | undefined;

  constructor(
    private readonly site: Site,
    private readonly ctx: InventoryRunDeps,
    private readonly log: Logger,
    private readonly productIds: string[] | undefined,
  ) {}

  /** Whether the ERP answered one of the run's calls (took our credentials). */
  get erpAnswered(): boolean {
    return this.erp?.answered ?? false;
  }

  /** Answers how many storefront items the ERP does not know (left as they are). */
  async execute(): Promise<{ unknown_to_erp: number }> {
    const erp = ErpClient.fromConfig(this.ctx.config, this.ctx.redis);
    if (!erp) throw erpNotConfigured();
    this.erp = erp;
    const storefront = openInventoryStorefront(this.site, this.ctx.config);
    const { units, skus } = await storefront.catalogue(this.productIds);
    // A full run reads the whole ERP catalogue (which also tells what the storefront lacks); a webhook's run only its SKUs.
    const items = this.productIds ? await erp.listItems(units.map((unit) => unit.sku)) : await erp.listItems();
    const erpStock = new Map(items.map((item) => [item.number.toLowerCase(), Math.floor(item.inventory)]));
    this.log.info("storefront and ERP stock read", { storefront_items: units.length, erp_items: erpStock.size });

    const changes = this.changes(units, erpStock);
    const unknown = units.filter((unit) => !erpStock.has(unit.sku.toLowerCase())).length;
    if (!this.productIds) this.counts.not_on_storefront = [...erpStock.keys()].filter((sku) => !skus.has(sku)).length;

    await this.ctx.progress(0, changes.length, "stock updates");
    await storefront.push(changes, async (result) => {
      await this.recordHistory(result.pushed);
      this.counts.pushed += result.pushed.length;
      this.counts.errors += result.failed.length;
      for (const { change, message } of result.failed) {
        this.failures.push({ sku: change.unit.sku, message });
        this.log.error("stock item could not be set", { sku: change.unit.sku, quantity: change.quantity, error: message });
      }
      await this.ctx.progress(this.counts.pushed + this.counts.errors, changes.length, "stock updates");
    });
    return { unknown_to_erp: unknown };
  }

  /** Stock below the site's threshold is sold out as far as the storefront goes; the storefront never gets a negative figure. */
  private changes(units: StockUnit[], erpStock: Map<string, number>): StockChange[] {
    const threshold = this.site.out_of_stock_threshold;
    const changes: StockChange[] = [];
    for (const unit of units) {
      const stock = erpStock.get(unit.sku.toLowerCase());
      if (stock === undefined) continue;
      this.counts.items += 1;
      const forced = stock > 0 && stock < threshold;
      if (forced) this.counts.forced_zero += 1;
      const quantity = forced ? 0 : Math.max(0, stock);
      if (quantity !== unit.current) changes.push({ unit, erpStock: stock, quantity });
    }
    return changes;
  }

  private async recordHistory(pushed: StockChange[]): Promise<void> {
    await recordItemHistory(
      this.ctx,
      this.site.id,
      pushed.map((change) => ({ sku: change.unit.sku, erp_stock: change.erpStock, pushed_stock: change.quantity })),
    );
  }
}

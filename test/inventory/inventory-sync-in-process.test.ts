import { runInventorySync } from "@mw/domains/inventory";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startInProcessSync, type InProcessSync } from "../support/in-process-sync.ts";
import { storefrontASite } from "../support/storefront-sites.ts";

// The inventory domain's use case called directly, without a worker process:
// real MariaDB and Redis, fakes of BigCommerce and the ERP.
let sync: InProcessSync;

beforeAll(async () => {
  sync = await startInProcessSync("inventory-in-process");
});

afterAll(async () => {
  await sync.close();
});

describe("runInventorySync in process", () => {
  it("sets changed stock, forces stock below the threshold to 0, keeps history, and a second run writes nothing", async () => {
    const { siteId, store } = await storefrontASite(sync.deps.prisma, sync.key, sync.fakeA, { out_of_stock_threshold: 5 });
    store.addProduct({ sku: "MUG", inventory_level: 5 });
    store.addProduct({ sku: "TEE", variants: [{ sku: "TEE-S", inventory_level: 1 }, { sku: "TEE-M", inventory_level: 10 }] });
    for (const [sku, stock] of [["mug", 7], ["TEE-S", 3], ["TEE-M", 10], ["ERP-ONLY", 4]] as const) sync.erp.addItem(sku, stock);
    const job = { id: "inventory-in-process.1", ends: () => true };

    const first = await runInventorySync(sync.deps, job, siteId);
    expect(first).toMatchObject({ counts: { items: 3, pushed: 2, forced_zero: 1, not_on_storefront: 1, errors: 0 }, unknown_to_erp: 0 });
    expect([store.stockOf("MUG"), store.stockOf("TEE-S"), store.stockOf("TEE-M")]).toEqual([7, 0, 10]);
    expect(sync.progress.at(-1)).toEqual([2, 2, "stock updates"]);
    expect(await sync.deps.prisma.itemHistory.count({ where: { site_id: siteId } })).toBe(2);
    expect((await sync.deps.prisma.site.findUniqueOrThrow({ where: { id: siteId } })).inventory_last_run).toBeInstanceOf(Date);

    const second = await runInventorySync(sync.deps, { ...job, id: "inventory-in-process.2" }, siteId);
    expect(second).toMatchObject({ counts: { items: 3, pushed: 0, errors: 0 } });
  });

  it("ends quietly for a site that no longer exists", async () => {
    expect(await runInventorySync(sync.deps, { id: undefined, ends: () => true }, 999_999_999)).toEqual({ skipped: "site_not_found" });
  });
});

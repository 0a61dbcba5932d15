import { queueScheduledInventorySyncs, upsertItems } from "@mw/domains/inventory";
import { ensureSchedules } from "@mw/worker/runtime/schedules";
import type { Job, Queue } from "bullmq";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { restCall, startApi, testConfig } from "../support/api.ts";
import { createSiteWithKey, orderBody } from "../support/fixtures.ts";
import { logLines } from "../support/processes.ts";
import { exportedOrder, storefrontASite, storefrontBSite } from "../support/storefront-sites.ts";
import { startSyncHarness, type SyncHarness } from "../support/sync-harness.ts";
import { settled, until } from "../support/wait.ts";

// Inventory sync and the inventory housekeeping jobs, run by the real worker
// entry point against real MariaDB and Redis and fakes of both storefronts and the ERP.
let harness: SyncHarness;
let queue: Queue;
// Short names for what the tests use most.
let prisma: SyncHarness["prisma"];
let key: Buffer;
let erp: SyncHarness["erp"];
let fakeA: SyncHarness["fakeA"];
let fakeB: SyncHarness["fakeB"];

beforeAll(async () => {
  harness = await startSyncHarness(["inventory"]);
  ({ prisma, key, erp, fakeA, fakeB } = harness);
  queue = harness.queues.get("inventory");
});

beforeEach(() => {
  erp.reset();
  fakeB.reset();
});

afterAll(() => harness.close());

let jobCounter = 0;
async function add(name: "inventory-sync" | "inventory-sku-cleanup" | "item-history-cleanup" | "inventory-sweep", data: Record<string, unknown> = {}): Promise<Job> {
  jobCounter += 1;
  return queue.add(name, data, { jobId: `${name}.test.${jobCounter}`, attempts: 1 });
}

async function run(name: Parameters<typeof add>[0], data: Record<string, unknown> = {}): Promise<Job> {
  return settled(queue, await add(name, data), harness.worker);
}

async function lastRun(siteId: number) {
  return prisma.syncRun.findFirstOrThrow({ where: { site_id: siteId, kind: "inventory" }, orderBy: { id: "desc" } });
}

function adjustments(hash: string) {
  return fakeA.requests.filter((r) => r.method === "PUT" && r.path === `/stores/${hash}/v3/inventory/adjustments/absolute`);
}

describe("inventory sync on storefront_a (BigCommerce)", () => {
  it("sets changed stock by product or variant as tracked, forces stock below the threshold to 0, keeps history, and a second run writes nothing", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, { out_of_stock_threshold: 5 });
    const mug = store.addProduct({ sku: "MUG", inventory_level: 5 });
    const tee = store.addProduct({ sku: "TEE", variants: [{ sku: "TEE-S", inventory_level: 1 }, { sku: "TEE-M", inventory_level: 10 }] });
    store.addProduct({ sku: "GIFT", inventory_tracking: "none" });
    for (const [sku, stock] of [["mug", 7], ["TEE-S", 3], ["TEE-M", 10], ["GIFT", 50], ["ERP-ONLY", 4], ["ERP-ONLY-2", 0]] as const) erp.addItem(sku, stock);

    const job = await run("inventory-sync", { site_id: siteId });
    expect(await job.getState()).toBe("completed");
    expect(adjustments(store.hash).map((r) => JSON.parse(r.body))).toEqual([
      {
        reason: "Stock levels from the ERP",
        items: [
          { location_id: 1, quantity: 7, product_id: mug.id },
          { location_id: 1, quantity: 0, variant_id: tee.variants[0]!.id },
        ],
      },
    ]);
    expect([store.stockOf("MUG"), store.stockOf("TEE-S"), store.stockOf("TEE-M"), store.stockOf("GIFT")]).toEqual([7, 0, 10, 0]);
    const runRow = await lastRun(siteId);
    expect(runRow).toMatchObject({ status: "completed", job_id: job.id, error: null });
    expect(runRow.counts).toEqual({ items: 3, pushed: 2, forced_zero: 1, not_on_storefront: 2, errors: 0 });
    expect(await prisma.itemHistory.findMany({ where: { site_id: siteId }, orderBy: { sku: "asc" }, select: { sku: true, erp_stock: true, pushed_stock: true } })).toEqual([
      { sku: "MUG", erp_stock: 7, pushed_stock: 7 },
      { sku: "TEE-S", erp_stock: 3, pushed_stock: 0 },
    ]);
    const site = await prisma.site.findUniqueOrThrow({ where: { id: siteId } });
    expect(site.inventory_last_run!.getTime()).toBeGreaterThan(Date.now() - 60_000);

    const again = await run("inventory-sync", { site_id: siteId });
    expect(await again.getState()).toBe("completed");
    expect(adjustments(store.hash)).toHaveLength(1);
    expect((await lastRun(siteId)).counts).toEqual({ items: 3, pushed: 0, forced_zero: 1, not_on_storefront: 2, errors: 0 });
  });

  it("sends at most 2000 items per adjustment and reports its progress to Bull Board", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    for (let i = 0; i < 2100; i += 1) {
      store.addProduct({ sku: `BULK-${i}`, inventory_level: 0 });
      erp.addItem(`BULK-${i}`, i + 1);
    }
    const job = await run("inventory-sync", { site_id: siteId });
    expect(await job.getState()).toBe("completed");
    expect(adjustments(store.hash).map((r) => (JSON.parse(r.body) as { items: unknown[] }).items.length)).toEqual([2000, 100]);
    expect(job.progress).toEqual({ done: 2100, total: 2100, percent: 100, note: "stock updates" });
    expect(store.stockOf("BULK-2099")).toBe(2100);
    expect((await lastRun(siteId)).counts).toMatchObject({ items: 2100, pushed: 2100 });
  });

  it("sets the rest when BigCommerce refuses single items (one in each half of the request), then fails the run naming them", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    for (const sku of ["K-1", "K-2", "K-3", "K-4"]) {
      store.addProduct({ sku, inventory_level: 0 });
      erp.addItem(sku, 9);
    }
    erp.delayMs = 600;
    const job = await add("inventory-sync", { site_id: siteId });
    // Two products are deleted on the store while the run reads the ERP.
    await until(() => fakeA.requests.some((r) => r.path === `/stores/${store.hash}/v3/catalog/products`), () => "the catalogue read");
    const [first] = store.products.splice(0, 1);
    const [third] = store.products.splice(1, 1);
    const done = await settled(queue, job, harness.worker);
    expect(await done.getState()).toBe("failed");
    expect(done.failedReason).toBe(`inventory sync of site ${siteId}: 2 of 4 items failed (first: K-1: storefront_a answered HTTP 422: [Item with product_id ${first!.id} not found])`);
    expect(["K-2", "K-4"].map((sku) => store.stockOf(sku))).toEqual([9, 9]);
    expect((await lastRun(siteId)).counts).toEqual({ items: 4, pushed: 2, forced_zero: 0, not_on_storefront: 0, errors: 2 });
    expect(logLines(harness.worker, "stock item could not be set").filter((line) => line.job_id === done.id).map((line) => line.error)).toEqual([
      `storefront_a answered HTTP 422: [Item with product_id ${first!.id} not found]`,
      `storefront_a answered HTTP 422: [Item with product_id ${third!.id} not found]`,
    ]);
    expect((await prisma.site.findUniqueOrThrow({ where: { id: siteId } })).inventory_last_run).toBeNull();
    expect(await prisma.syncError.findFirst({ where: { site_id: siteId } })).toMatchObject({ source: "inventory_sync", message: done.failedReason });
  });

  it("stops splitting a request BigCommerce refuses as a whole (the location is gone) and counts its items as refused", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    for (let i = 0; i < 40; i += 1) {
      store.addProduct({ sku: `LOC-${i}`, inventory_level: 0 });
      erp.addItem(`LOC-${i}`, 3);
    }
    store.locations = new Set([2]);
    const job = await run("inventory-sync", { site_id: siteId });
    expect(await job.getState()).toBe("failed");
    expect(job.failedReason).toBe(`inventory sync of site ${siteId}: 40 of 40 items failed (first: LOC-0: storefront_a answered HTTP 422: Location not found, identities: [1])`);
    // The request, then its halves, each refused alike.
    expect(adjustments(store.hash).map((r) => (JSON.parse(r.body) as { items: unknown[] }).items.length)).toEqual([40, 20, 20]);
    expect((await lastRun(siteId)).counts).toEqual({ items: 40, pushed: 0, forced_zero: 0, not_on_storefront: 0, errors: 40 });
  });

  it("puts the run back for the ERP's 429 with Retry-After without using its one attempt, then sets the stock", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    store.addProduct({ sku: "WAIT-1", inventory_level: 0 });
    erp.addItem("WAIT-1", 6);
    erp.rateLimited = 1;
    erp.retryAfterSeconds = 1;
    const job = await run("inventory-sync", { site_id: siteId });
    expect(await job.getState()).toBe("completed");
    expect(job.attemptsMade).toBe(1);
    expect(erp.requests.filter((r) => r.status === 429)).toHaveLength(1);
    expect(logLines(harness.worker, "job delayed").filter((line) => line.job_id === job.id)).toMatchObject([{ delay_ms: 1000 }]);
    expect(store.stockOf("WAIT-1")).toBe(6);
    expect(await lastRun(siteId)).toMatchObject({ status: "completed", error: null });
    // A wait the ERP asked for is no failure to report.
    expect(await prisma.syncError.count({ where: { site_id: siteId } })).toBe(0);
  });

  it("limits a product webhook's run to its products, and leaves inventory_last_run to full runs", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    const changed = store.addProduct({ sku: "HOOK-1", inventory_level: 1 });
    store.addProduct({ sku: "HOOK-2", inventory_level: 1 });
    erp.addItem("HOOK-1", 4);
    erp.addItem("HOOK-2", 4);
    const job = await run("inventory-sync", { site_id: siteId, product_ids: [String(changed.id)] });
    expect(await job.getState()).toBe("completed");
    expect([store.stockOf("HOOK-1"), store.stockOf("HOOK-2")]).toEqual([4, 1]);
    expect(fakeA.requests.find((r) => r.path === `/stores/${store.hash}/v3/catalog/products`)!.query.get("id:in")).toBe(String(changed.id));
    expect(new URL(erp.requests.at(-1)!.url, "http://erp").searchParams.get("$filter")).toBe("number eq 'HOOK-1'");
    expect((await lastRun(siteId)).counts).toEqual({ items: 1, pushed: 1, forced_zero: 0, not_on_storefront: 0, errors: 0 });
    expect((await prisma.site.findUniqueOrThrow({ where: { id: siteId } })).inventory_last_run).toBeNull();
  });

  it("ends quietly for a site without inventory sync", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, { inventory_sync: false });
    const job = await run("inventory-sync", { site_id: siteId });
    expect(job.returnvalue).toEqual({ skipped: "inventory_disabled" });
    expect(fakeA.requests.some((r) => r.path.startsWith(`/stores/${store.hash}/`))).toBe(false);
    expect(await prisma.syncRun.count({ where: { site_id: siteId } })).toBe(0);
  });
});

describe("inventory sync on storefront_b (WooCommerce)", () => {
  it("sets products and variations that manage stock through the batch endpoints and forces stock below the threshold to 0", async () => {
    const siteId = await storefrontBSite(prisma, key, fakeB, { out_of_stock_threshold: 3 });
    const simple = fakeB.shop.addProduct({ sku: "W-SIMPLE", stock_quantity: 1 });
    const variable = fakeB.shop.addProduct({ sku: "W-VAR", variations: [{ sku: "W-VAR-1", stock_quantity: 8 }, { sku: "W-VAR-2", manage_stock: "parent" }] });
    fakeB.shop.addProduct({ sku: "W-LOOSE", manage_stock: false });
    for (const [sku, stock] of [["W-SIMPLE", 12], ["W-VAR-1", 2], ["W-VAR-2", 5], ["W-LOOSE", 9]] as const) erp.addItem(sku, stock);

    const job = await run("inventory-sync", { site_id: siteId });
    expect(await job.getState()).toBe("completed");
    const writes = fakeB.requests.filter((r) => r.method === "POST");
    expect(writes.map((r) => [r.path, JSON.parse(r.body)])).toEqual([
      ["/wp-json/wc/v3/products/batch", { update: [{ id: simple.id, stock_quantity: 12 }] }],
      [`/wp-json/wc/v3/products/${variable.id}/variations/batch`, { update: [{ id: variable.variations[0], stock_quantity: 0 }] }],
    ]);
    expect([fakeB.shop.stockOf("W-SIMPLE"), fakeB.shop.stockOf("W-VAR-1"), fakeB.shop.stockOf("W-LOOSE")]).toEqual([12, 0, null]);
    expect((await lastRun(siteId)).counts).toEqual({ items: 2, pushed: 2, forced_zero: 1, not_on_storefront: 0, errors: 0 });
  });

  it("keeps the history of the batches it set when a later batch fails, and the retry records only the rest", async () => {
    const siteId = await storefrontBSite(prisma, key, fakeB);
    for (let i = 0; i < 150; i += 1) {
      fakeB.shop.addProduct({ sku: `WH-${i}`, stock_quantity: 0 });
      erp.addItem(`WH-${i}`, 5);
    }
    let batches = 0;
    const secondBatchFails = fakeB.intercept((request) => {
      if (request.method !== "POST" || request.path !== "/wp-json/wc/v3/products/batch") return undefined;
      batches += 1;
      return batches === 2 ? fakeB.criticalError() : undefined;
    });
    const failed = await run("inventory-sync", { site_id: siteId });
    secondBatchFails();
    expect(await failed.getState()).toBe("failed");
    expect([fakeB.shop.stockOf("WH-99"), fakeB.shop.stockOf("WH-100")]).toEqual([5, 0]);
    expect(await prisma.itemHistory.count({ where: { site_id: siteId } })).toBe(100);
    expect((await lastRun(siteId)).counts).toMatchObject({ items: 150, pushed: 100, errors: 0 });

    const retried = await run("inventory-sync", { site_id: siteId });
    expect(await retried.getState()).toBe("completed");
    expect((await lastRun(siteId)).counts).toMatchObject({ items: 150, pushed: 50 });
    const history = await prisma.itemHistory.findMany({ where: { site_id: siteId }, select: { sku: true } });
    expect(new Set(history.map((row) => row.sku)).size).toBe(150);
    expect(history).toHaveLength(150);
  });

  it("sets the rest when WooCommerce refuses one item of a batch", async () => {
    const siteId = await storefrontBSite(prisma, key, fakeB);
    const products = ["WB-1", "WB-2", "WB-3"].map((sku) => fakeB.shop.addProduct({ sku, stock_quantity: 0 }));
    for (const product of products) erp.addItem(product.sku, 6);
    erp.delayMs = 600;
    const job = await add("inventory-sync", { site_id: siteId });
    await until(() => fakeB.requests.some((r) => r.path === "/wp-json/wc/v3/products"), () => "the catalogue read");
    fakeB.shop.products.delete(products[1]!.id);
    const done = await settled(queue, job, harness.worker);
    expect(await done.getState()).toBe("failed");
    expect(done.failedReason).toBe(`inventory sync of site ${siteId}: 1 of 3 items failed (first: WB-2: storefront_b refused stock for WB-2: Invalid ID. (woocommerce_rest_product_invalid_id))`);
    expect([fakeB.shop.stockOf("WB-1"), fakeB.shop.stockOf("WB-3")]).toEqual([6, 6]);
    expect((await lastRun(siteId)).counts).toMatchObject({ pushed: 2, errors: 1 });
  });
});

describe("scheduled full inventory sync", () => {
  const HOUR = 3600_000;

  /** Sites other tests and test files left syncing inventory would be swept too; only `siteIds` are under test. */
  async function onlyTheseSync(siteIds: number[]) {
    await prisma.site.updateMany({ where: { id: { notIn: siteIds }, inventory_sync: true }, data: { inventory_sync: false } });
  }

  async function fullSyncsOf(siteId: number) {
    const jobs = await queue.getJobs(["waiting", "active", "delayed", "prioritized", "completed", "failed"]);
    return jobs.filter((job) => job.name === "inventory-sync" && job.data.site_id === siteId && !job.data.product_ids).map((job) => job.id);
  }

  it("the worker schedules the sweep at the top of every hour", async () => {
    await ensureSchedules(harness.queues, ["inventory"], testConfig());
    try {
      expect(await queue.getJobScheduler("inventory-sweep")).toMatchObject({ name: "inventory-sweep", pattern: "0 * * * *", tz: "UTC" });
    } finally {
      await queue.removeJobScheduler("inventory-sweep");
    }
  });

  it("queues one full sync per site that syncs inventory, which brings ERP stock changes to the storefront, once per hour", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    const { siteId: off } = await storefrontASite(prisma, key, fakeA, { inventory_sync: false });
    const { siteId: inactive } = await storefrontASite(prisma, key, fakeA, { is_active: false });
    store.addProduct({ sku: "HOURLY", inventory_level: 1 });
    erp.addItem("HOURLY", 8);
    await onlyTheseSync([siteId, off, inactive]);

    const sweep = await run("inventory-sweep");
    expect(await sweep.getState()).toBe("completed");
    const { period_start } = sweep.returnvalue as { period_start: string };
    expect(Date.parse(period_start) % HOUR).toBe(0);
    const fullSync = `inventory-sync.${siteId}.scheduled.${Date.parse(period_start)}`;
    expect(sweep.returnvalue).toEqual({ period_start, syncs: [{ site_id: siteId, job_id: fullSync }] });
    const done = await settled(queue, (await queue.getJob(fullSync))!, harness.worker);
    expect(await done.getState()).toBe("completed");
    expect(done.data).toEqual({ site_id: siteId });
    expect(store.stockOf("HOURLY")).toBe(8);
    expect((await prisma.site.findUniqueOrThrow({ where: { id: siteId } })).inventory_last_run!.getTime()).toBeGreaterThan(Date.now() - 60_000);
    for (const other of [off, inactive]) expect(await fullSyncsOf(other)).toEqual([]);

    // A rerun in the same hour (a retried sweep, a second worker's) adds nothing.
    const again = await run("inventory-sweep");
    expect(again.returnvalue).toEqual({ period_start, syncs: [{ site_id: siteId, job_id: fullSync }] });
    expect(await fullSyncsOf(siteId)).toEqual([fullSync]);
  });

  it("does not queue a second full sync behind one still waiting or running, and queues the next once it ended", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    store.addProduct({ sku: "SLOW", inventory_level: 1 });
    erp.addItem("SLOW", 2);
    await onlyTheseSync([siteId]);
    const hour = Math.floor(Date.now() / HOUR) * HOUR;
    // The ERP answers slowly, so the first hour's sync is still waiting or running when the next hour's sweep comes.
    erp.delayMs = 1000;

    const first = await queueScheduledInventorySyncs({ prisma, queues: harness.queues }, hour);
    const firstId = `inventory-sync.${siteId}.scheduled.${hour}`;
    expect(first.syncs).toEqual([{ site_id: siteId, job_id: firstId }]);
    const next = await queueScheduledInventorySyncs({ prisma, queues: harness.queues }, hour + HOUR + 5);
    expect(next.syncs).toEqual([{ site_id: siteId, job_id: firstId }]);
    expect(await fullSyncsOf(siteId)).toEqual([firstId]);
    expect(["waiting", "active"]).toContain(await queue.getJobState(firstId));

    expect(await (await settled(queue, (await queue.getJob(firstId))!, harness.worker)).getState()).toBe("completed");
    erp.delayMs = 0;
    const later = await queueScheduledInventorySyncs({ prisma, queues: harness.queues }, hour + 2 * HOUR);
    const laterId = `inventory-sync.${siteId}.scheduled.${hour + 2 * HOUR}`;
    expect(later.syncs).toEqual([{ site_id: siteId, job_id: laterId }]);
    expect(await (await settled(queue, (await queue.getJob(laterId))!, harness.worker)).getState()).toBe("completed");
    expect((await fullSyncsOf(siteId)).sort()).toEqual([firstId, laterId].sort());
  });
});

describe("inventory housekeeping", () => {
  it("item-history-cleanup removes rows older than 3 days, in batches, and keeps the rest", async () => {
    const { siteId } = await storefrontASite(prisma, key, fakeA);
    const old = new Date(Date.now() - 4 * 86_400_000);
    await prisma.itemHistory.createMany({ data: Array.from({ length: 5003 }, (_, i) => ({ site_id: siteId, sku: `OLD-${i}`, erp_stock: 1, pushed_stock: 1, synced_at: old })) });
    await prisma.itemHistory.create({ data: { site_id: siteId, sku: "RECENT", erp_stock: 1, pushed_stock: 1, synced_at: new Date(Date.now() - 2 * 86_400_000) } });
    const job = await run("item-history-cleanup");
    expect(job.returnvalue).toEqual({ deleted: 5003 });
    expect(await prisma.itemHistory.findMany({ where: { site_id: siteId }, select: { sku: true } })).toEqual([{ sku: "RECENT" }]);
  });

  it("inventory-sku-cleanup logs a dry run, then removes catalogue SKUs the ERP no longer has, keeping those of orders not yet exported", async () => {
    const { siteId } = await storefrontASite(prisma, key, fakeA);
    // The catalogue other tests of this database left is all in the ERP, so only this test's SKUs are judged.
    for (const item of await prisma.item.findMany({ select: { sku: true } })) erp.addItem(item.sku, 1);
    await upsertItems({ prisma }, ["KEEP-1", "GONE-1", "GONE-2", "GONE-PENDING"].map((sku) => ({ sku, name: sku, price: 1, stock: 1 })));
    erp.addItem("keep-1", 3);
    await exportedOrder(prisma, siteId, `PEND-${process.pid}`, "SO-PENDING");
    const pending = await prisma.order.findFirstOrThrow({ where: { site_id: siteId, number: `PEND-${process.pid}` } });
    await prisma.order.update({ where: { id: pending.id }, data: { imported: 0, erp_sales_order_number: null, lines: { create: [{ line: 1, sku: "GONE-PENDING", quantity: 1, price: 1 }] } } });
    const catalogue = await prisma.item.count();
    // An API process that has seen GONE-1 remembers it (KnownSkus) until the cleanup says otherwise.
    const api = await startApi();
    const { key: siteKey } = await createSiteWithKey(prisma);
    const order = (n: number) =>
      restCall(`${api.url}/middleware/v1/external/orders`, "POST", orderBody(`GONE-${process.pid}-${n}`, { line_items: [{ line_number: 1, sku: "GONE-1", quantity: 1, unit_price: 1 }] }), `Bearer ${siteKey}`);
    expect((await order(1)).status).toBe(201);
    // Exported, so it does not keep GONE-1 in the catalogue.
    await prisma.order.updateMany({ where: { number: `GONE-${process.pid}-1` }, data: { imported: 1 } });

    const job = await run("inventory-sku-cleanup");
    expect(await job.getState()).toBe("completed");
    expect(job.returnvalue).toEqual({ catalogue, erp_items: catalogue - 3, not_in_erp: 3, kept_for_pending_orders: 1, deleted: 2 });
    expect((await prisma.item.findMany({ where: { sku: { in: ["KEEP-1", "GONE-1", "GONE-2", "GONE-PENDING"] } }, select: { sku: true }, orderBy: { sku: "asc" } })).map((i) => i.sku)).toEqual(["GONE-PENDING", "KEEP-1"]);
    const [dryRun] = logLines(harness.worker, "SKU cleanup dry run").filter((line) => line.job_id === job.id);
    expect(dryRun).toMatchObject({ not_in_erp: 3, kept_for_pending_orders: 1, to_delete: 2, sample: ["GONE-1", "GONE-2"] });
    const output = harness.worker.output();
    expect(output.indexOf('"message":"SKU cleanup dry run"')).toBeLessThan(output.lastIndexOf('"message":"SKU cleanup removed catalogue items the ERP no longer has"'));
    // The very next order naming a removed SKU is refused.
    const refused = await order(2);
    await api.close();
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: "unknown_skus", data: { unknown_skus: ["GONE-1"] } });
  });

  it("inventory-sku-cleanup refuses to empty the catalogue when the ERP lists no items", async () => {
    await upsertItems({ prisma }, [{ sku: "SAFE-1", name: "Safe", price: 1, stock: 1 }]);
    const job = await run("inventory-sku-cleanup");
    expect(await job.getState()).toBe("failed");
    expect(job.failedReason).toBe("SKU cleanup refused: the ERP lists no items, so the catalogue is left as it is");
    expect(await prisma.item.count({ where: { sku: "SAFE-1" } })).toBe(1);
  });
});

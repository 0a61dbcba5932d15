import { issueSiteApiKey } from "@mw/domains/sites";
import { ordersImportJob, ordersImportSchedulerId, orderExportJobId } from "@mw/domains/orders";
import type { Job, Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, userWith, type TestApi } from "../support/api.ts";
import { orderBody, postSite, seedItems } from "../support/fixtures.ts";
import { logged } from "../support/processes.ts";
import { storefrontASite, storefrontBSite } from "../support/storefront-sites.ts";
import { startSyncHarness, type SyncHarness } from "../support/sync-harness.ts";
import { settled } from "../support/wait.ts";

// Storefront order import end to end: the real worker entry point, real MariaDB and Redis,
// fakes of BigCommerce (storefront_a) and WooCommerce (storefront_b) with their paging.
let harness: SyncHarness;
let queue: Queue;
let api: TestApi;
const RUN = `${process.pid}${Date.now() % 100000}`;
const SKU = `IMP-${RUN}`;

beforeAll(async () => {
  harness = await startSyncHarness(["orders"]);
  await harness.worker.waitFor(logged("orders schedules reconciled"));
  queue = harness.queues.get("orders");
  await seedItems(harness.prisma, [SKU]);
  api = await startApi();
});
afterAll(async () => {
  await api.close();
  await harness.close();
});

let jobs = 0;
async function importRun(siteId: number, options: { attempts?: number } = {}): Promise<Job> {
  jobs += 1;
  const job = await harness.queues.add(ordersImportJob, { site_id: siteId }, { jobId: `orders-import.${siteId}.test.${jobs}`, ...options });
  return settled(queue, job, harness.worker, 60_000);
}

describe("storefront_a (BigCommerce)", () => {
  it("imports the orders in the site's status filters across pages, queues their export, and a second run imports nothing new", async () => {
    const { prisma, key, fakeA } = harness;
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, { orders_sync: true, tracking_sync: false, tracking_enabled: false, inventory_sync: false });
    // More than one page (BigCommerce v2 answers at most 250 per page).
    for (let i = 0; i < 260; i += 1) store.addOrder({ status_id: 9, lines: [{ sku: SKU, quantity: 2, price: 19.9 }] });
    const unknown = store.addOrder({ status_id: 9, lines: [{ sku: "NOT-IN-CATALOGUE", quantity: 1 }] });
    store.addOrder({ status_id: 10, lines: [{ sku: SKU, quantity: 1 }] }); // Completed: not in the filters 9,3

    const first = await importRun(siteId);
    expect(await first.getState()).toBe("completed");
    expect(first.returnvalue.counts).toEqual({ orders: 261, imported: 260, already_stored: 0, rejected: 1 });
    expect(fakeA.requests.filter((request) => request.url.includes("/v2/orders?") && request.url.includes("status_id=9")).map((request) => new URL(request.url, "http://fake").searchParams.get("page"))).toContain("2");
    expect(await prisma.order.count({ where: { site_id: siteId } })).toBe(260);
    const [sample] = [...store.orders.values()];
    const stored = await prisma.order.findUniqueOrThrow({
      where: { site_id_number: { site_id: siteId, number: String(sample!.id) } },
      include: { lines: { orderBy: { line: "asc" } }, addresses: { orderBy: { type: "desc" } } },
    });
    expect(stored).toMatchObject({ fully_import_from_website: 1, imported: 0, payment_method: "pay_1", trans_id: `ch_${sample!.id}`, shipping_agent_code: "FEDEX" });
    expect(stored.lines.map((line) => [line.line, line.sku, line.quantity, Number(line.price)])).toEqual([
      [1, SKU, 2, 19.9],
      [2, "SHIPPING", 1, 4.95],
    ]);
    expect(stored.addresses.map((a) => [a.type, a.address1, a.city, a.postal_code, a.email])).toEqual([
      [1, "12 Harbour Street", "Portland", "97201", sample!.email],
      [0, "12 Harbour Street", "Portland", "97201", sample!.email],
    ]);
    expect(await queue.getJob(orderExportJobId(stored.id))).toBeDefined();
    expect((await prisma.syncError.findMany({ where: { source: "orders_import", site_id: siteId } })).map((row) => row.message)).toEqual([
      `storefront order ${unknown.id}: Unknown SKU(s): NOT-IN-CATALOGUE`,
    ]);
    const site = await prisma.site.findUniqueOrThrow({ where: { id: siteId } });
    expect(site.order_last_run).toBeInstanceOf(Date);
    const run = await prisma.syncRun.findFirstOrThrow({ where: { site_id: siteId, kind: "orders" }, orderBy: { id: "desc" } });
    expect(run).toMatchObject({ status: "completed", counts: first.returnvalue.counts });

    const second = await importRun(siteId);
    expect(second.returnvalue.counts).toMatchObject({ imported: 0 });
    expect(await prisma.order.count({ where: { site_id: siteId } })).toBe(260);
    // The refused order came round again (overlap window): still one error for operators.
    expect(await prisma.syncError.count({ where: { source: "orders_import", site_id: siteId } })).toBe(1);

    // Only what changed since the last run (less a small overlap) is asked for.
    const asked = fakeA.requests.filter((request) => request.url.includes("/v2/orders?")).at(-1)!;
    expect(new URL(asked.url, "http://fake").searchParams.get("min_date_modified")).toBeTruthy();
    store.addOrder({ status_id: 9, lines: [{ sku: SKU, quantity: 1 }] });
    const third = await importRun(siteId);
    expect(third.returnvalue.counts).toMatchObject({ imported: 1 });
    expect(await prisma.order.count({ where: { site_id: siteId } })).toBe(261);
  }, 120_000);

  it("reads only the site's channel; a run the storefront fails stores nothing and leaves order_last_run where it was; later runs read only what changed", async () => {
    const { prisma, key, fakeA } = harness;
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, {
      orders_sync: true,
      tracking_sync: false,
      tracking_enabled: false,
      inventory_sync: false,
      channel_filter: { channel_id: 2, name: "eBay" },
    });
    const lines = [{ sku: SKU, quantity: 1 }];
    const older = store.addOrder({ status_id: 9, channel_id: 2, date_modified: new Date(Date.now() - 3600_000), lines });
    const recent = store.addOrder({ status_id: 9, channel_id: 2, lines });
    const otherChannel = store.addOrder({ status_id: 9, channel_id: 1, lines });

    const ordersPath = `/stores/${store.hash}/v2/orders`;
    const outage = fakeA.intercept((request) => (request.path === ordersPath ? fakeA.json(500, [{ status: 500, message: "Internal Server Error" }]) : undefined));
    const failed = await importRun(siteId, { attempts: 1 });
    outage();
    expect(await failed.getState()).toBe("failed");
    expect(await prisma.order.count({ where: { site_id: siteId } })).toBe(0);
    expect((await prisma.site.findUniqueOrThrow({ where: { id: siteId } })).order_last_run).toBeNull();
    expect(await prisma.syncRun.findFirstOrThrow({ where: { site_id: siteId, kind: "orders" }, orderBy: { id: "desc" } })).toMatchObject({ status: "failed" });

    const first = await importRun(siteId);
    expect(first.returnvalue.counts).toEqual({ orders: 2, imported: 2, already_stored: 0, rejected: 0 });
    const numbers = await prisma.order.findMany({ where: { site_id: siteId }, select: { number: true }, orderBy: { number: "asc" } });
    expect(numbers.map((order) => order.number)).toEqual([String(older.id), String(recent.id)]);
    expect(numbers.map((order) => order.number)).not.toContain(String(otherChannel.id));
    expect(fakeA.requests.filter((request) => request.path === ordersPath).every((request) => request.query.get("channel_id") === "2")).toBe(true);

    // The next run asks only for orders changed since the last run less the overlap: the hour-old order is not read again.
    const next = await importRun(siteId);
    expect(next.returnvalue.counts).toEqual({ orders: 1, imported: 0, already_stored: 1, rejected: 0 });
  }, 120_000);
});

describe("schedule", () => {
  it("gives a site saved with orders_sync a scheduler every 15 minutes, and takes it away when it is turned off", async () => {
    const admin = await userWith(api, "manage_middleware");
    const siteId = await postSite(api.url, admin, { orders_sync: true });
    const scheduler = await api.ctx.queues.get("orders").getJobScheduler(ordersImportSchedulerId(siteId));
    expect(scheduler).toMatchObject({ every: 15 * 60_000, name: "orders-import" });
    const res = await fetch(`${api.url}/middleware/v1/sites/${siteId}`, { method: "PUT", headers: { authorization: admin, "content-type": "application/json" }, body: JSON.stringify({ orders_sync: false }) });
    expect(res.status).toBe(200);
    expect(await api.ctx.queues.get("orders").getJobScheduler(ordersImportSchedulerId(siteId))).toBeUndefined();
  });
});

describe("storefront_b (WooCommerce)", () => {
  it("imports across pages, and stores an order the ERP pushed as well only once", async () => {
    const { prisma, key, fakeB } = harness;
    const siteId = await storefrontBSite(prisma, key, fakeB, { orders_sync: true, tracking_sync: false, tracking_enabled: false, inventory_sync: false });
    // More than one page (100 per page).
    const orders = Array.from({ length: 120 }, (_, i) => fakeB.shop.addOrder({ number: `W${RUN}${i}`, status: "processing", lines: [{ sku: SKU, quantity: 1, price: 25 }] }));
    fakeB.shop.addOrder({ number: `W${RUN}done`, status: "completed", lines: [{ sku: SKU, quantity: 1 }] });

    // The ERP pushes one of them first, with its own content.
    const { key: siteKey } = await issueSiteApiKey({ prisma }, siteId, "erp");
    const pushed = await fetch(`${api.url}/middleware/v1/external/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${siteKey}`, "content-type": "application/json" },
      body: JSON.stringify(orderBody(orders[0]!.number, { line_items: [{ line_number: 1, sku: SKU, quantity: 1, unit_price: 25 }] })),
    });
    expect(pushed.status).toBe(201);

    const first = await importRun(siteId);
    expect(first.returnvalue.counts).toEqual({ orders: 120, imported: 119, already_stored: 1, rejected: 0 });
    expect(await prisma.order.count({ where: { site_id: siteId } })).toBe(120);
    expect(await prisma.order.count({ where: { site_id: siteId, number: orders[0]!.number } })).toBe(1);
    const stored = await prisma.order.findUniqueOrThrow({ where: { site_id_number: { site_id: siteId, number: orders[5]!.number } }, include: { lines: { orderBy: { line: "asc" } } } });
    expect(stored.lines.map((line) => [line.sku, line.quantity, Number(line.price)])).toEqual([
      [SKU, 1, 25],
      ["SHIPPING", 1, 4.95],
    ]);
    expect(fakeB.requests.filter((request) => request.url.startsWith("/wp-json/wc/v3/orders?")).map((request) => new URL(request.url, "http://fake").searchParams.get("page"))).toEqual(["1", "2"]);

    const second = await importRun(siteId);
    expect(second.returnvalue.counts).toMatchObject({ imported: 0, rejected: 0 });
    const asked = fakeB.requests.filter((request) => request.url.startsWith("/wp-json/wc/v3/orders?")).at(-1)!;
    expect(new URL(asked.url, "http://fake").searchParams.get("modified_after")).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(await prisma.order.count({ where: { site_id: siteId } })).toBe(120);
  }, 120_000);
});

import { trackingSyncJob } from "@mw/domains/tracking";
import type { Job, Queue } from "bullmq";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpSink } from "../fakes/http-sink.ts";
import { restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { exportedOrder, itemLines, receivedOrder, storefrontASite, storefrontBSite } from "../support/storefront-sites.ts";
import { logLines } from "../support/processes.ts";
import { startSyncHarness, type SyncHarness } from "../support/sync-harness.ts";
import { settled, until } from "../support/wait.ts";

// Tracking sync end to end: the real worker entry point as a child process,
// real MariaDB and Redis, fakes of BigCommerce, WooCommerce and the ERP.
let harness: SyncHarness;
let queue: Queue;
let api: TestApi;
let admin: string;
let sink: HttpSink;
let soCounter = 0;
// Short names for what the tests use most.
let prisma: SyncHarness["prisma"];
let key: Buffer;
let erp: SyncHarness["erp"];
let fakeA: SyncHarness["fakeA"];
let fakeB: SyncHarness["fakeB"];

beforeAll(async () => {
  sink = await new HttpSink().start();
  harness = await startSyncHarness(["tracking", "notifications"], { HTTP_TIMEOUT_MS: "2000", STOREFRONT_RATE_LIMIT_MAX_WAIT_MS: "3000" });
  ({ prisma, key, erp, fakeA, fakeB } = harness);
  queue = harness.queues.get("tracking");
  api = await startApi();
  admin = await userWith(api, "manage_middleware");
});

beforeEach(() => {
  erp.reset();
  fakeB.reset();
  sink.requests.length = 0;
});

afterAll(async () => {
  await api.close();
  await harness.close();
  await sink.stop();
});

let jobCounter = 0;
async function sync(siteId: number, options: { attempts?: number } = {}): Promise<Job> {
  jobCounter += 1;
  const job = await harness.queues.add(trackingSyncJob, { site_id: siteId }, { jobId: `tracking-sync.${siteId}.test.${jobCounter}`, attempts: options.attempts ?? 1 });
  return settled(queue, job, harness.worker);
}

/** An order of ours for `number`, exported to the ERP, with these ERP shipments. */
async function erpOrder(siteId: number, number: string | number, shipments: { carrier: string; tracking: string; lines?: Record<string, number>; date?: string }[]) {
  soCounter += 1;
  const salesOrder = `SO-${process.pid}-${soCounter}`;
  await exportedOrder(prisma, siteId, String(number), salesOrder);
  for (const shipment of shipments) {
    erp.addShipment({
      orderNumber: salesOrder,
      shipmentDate: shipment.date ?? "2026-11-18",
      shippingAgentCode: shipment.carrier,
      packageTrackingNo: shipment.tracking,
      salesShipmentLines: itemLines(shipment.lines ?? {}),
    });
  }
  return salesOrder;
}

async function lastRun(siteId: number) {
  return prisma.syncRun.findFirstOrThrow({ where: { site_id: siteId, kind: "tracking" }, orderBy: { id: "desc" } });
}

/** What an operator sees of the site's last run. */
async function statusCounts(siteId: number) {
  const res = await restCall(`${api.url}/middleware/v1/tracking/status/${siteId}`, "GET", undefined, admin);
  expect(res.status).toBe(200);
  return (res.body.last_run as { counts: unknown }).counts;
}

function counts(overrides: Record<string, number>) {
  return { orders: 0, shipments_created: 0, already_posted: 0, skipped_carrier: 0, skipped_invalid: 0, unmapped_carrier: 0, not_linked: 0, not_exported: 0, awaiting_shipment: 0, claimed_by_other_run: 0, completed: 0, errors: 0, ...overrides };
}

async function healthPings(): Promise<number> {
  // The ping is its own notifications job; give it a moment to land.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return sink.requests.length;
}

describe("tracking sync on storefront_a (BigCommerce)", () => {
  it("posts a shipment per tracking number with SKU-matched items and the mapped carrier, completes the shipped order, and a second run creates nothing", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, { health_check_url: `${sink.url}/ping/a1` });
    const order = store.addOrder({ status_id: 9, lines: [{ sku: "MUG-1", quantity: 2 }, { sku: "TEE-M", quantity: 1 }] });
    await erpOrder(siteId, order.id, [{ carrier: "ups", tracking: "1z 999 aa1 0123456784", lines: { "mug-1": 2, "TEE-M": 1 } }]);

    const first = await sync(siteId);
    expect(await first.getState()).toBe("completed");
    expect(first.progress).toEqual({ done: 1, total: 1, percent: 100, note: "orders" });
    expect(order.shipments).toMatchObject([
      {
        tracking_number: "1Z999AA10123456784",
        tracking_carrier: "ups",
        shipping_provider: "",
        items: [
          { order_product_id: order.products[0]!.id, quantity: 2 },
          { order_product_id: order.products[1]!.id, quantity: 1 },
        ],
      },
    ]);
    // 9 -> shipment -> 2 (BigCommerce) -> 10 (auto-complete); the shopper got both status e-mails, the first with the tracking number.
    expect(order.status_id).toBe(10);
    expect(store.emails.map((e) => [e.status_id, e.tracking_numbers])).toEqual([
      [2, ["1Z999AA10123456784"]],
      [10, ["1Z999AA10123456784"]],
    ]);
    const run = await lastRun(siteId);
    expect(run).toMatchObject({ status: "completed", job_id: first.id, error: null });
    expect(run.finished_at).toBeInstanceOf(Date);
    expect(run.counts).toEqual(counts({ orders: 1, shipments_created: 1, completed: 1 }));
    // order_last_run is the order import's cursor: reading orders for tracking must not move it.
    expect((await prisma.site.findUniqueOrThrow({ where: { id: siteId } })).order_last_run).toBeNull();
    expect(await prisma.order.findFirstOrThrow({ where: { site_id: siteId } })).toMatchObject({ ship_status: 1 });
    expect(await prisma.shipmentRecord.findMany({ where: { site_id: siteId } })).toMatchObject([
      { platform_order_id: String(order.id), tracking_number: "1Z999AA10123456784", erp_carrier_code: "UPS", platform_carrier_code: "ups", platform_shipment_id: String(order.shipments[0]!.id) },
    ]);
    expect(await healthPings()).toBe(1);
    expect(sink.requests[0]!.path).toBe("/ping/a1");

    // Put it back in the filters: the record, not the status, is what stops a second shipment.
    order.status_id = 9;
    const before = fakeA.requests.length;
    const second = await sync(siteId);
    expect(await second.getState()).toBe("completed");
    expect(order.shipments).toHaveLength(1);
    expect(fakeA.requests.slice(before).filter((r) => r.method === "POST")).toEqual([]);
    expect((await lastRun(siteId)).counts).toMatchObject({ orders: 1, shipments_created: 0, already_posted: 1 });
  });

  it("posts several shipments for one order: the first leaves it Partially Shipped (3), the last ships the rest and completes it", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    const order = store.addOrder({ lines: [{ sku: "A", quantity: 3 }, { sku: "B", quantity: 1 }] });
    const salesOrder = await erpOrder(siteId, order.id, [{ carrier: "FEDEX", tracking: "794612345678", lines: { A: 2 } }]);

    await sync(siteId);
    expect(order.status_id).toBe(3);
    expect(order.shipments.map((s) => [s.tracking_number, s.tracking_carrier, s.items.map((i) => i.quantity)])).toEqual([["794612345678", "fedex", [2]]]);
    expect((await lastRun(siteId)).counts).toMatchObject({ shipments_created: 1, completed: 0 });

    erp.addShipment({ orderNumber: salesOrder, shipmentDate: "2026-11-19", shippingAgentCode: "USPS", packageTrackingNo: "9400111899223344556677", salesShipmentLines: itemLines({ A: 1, B: 1 }) });
    erp.addShipment({ orderNumber: salesOrder, shipmentDate: "2026-11-19", shippingAgentCode: "DHL", packageTrackingNo: "1234567890", salesShipmentLines: [] });
    await sync(siteId);
    // The DHL shipment names no items and nothing is left for it once the USPS one shipped the rest:
    // BigCommerce has the order at Shipped, but a run with a failed order completes nothing of it.
    expect(order.shipments.map((s) => s.tracking_number)).toEqual(["794612345678", "9400111899223344556677"]);
    expect(order.status_id).toBe(2);
    const run = await lastRun(siteId);
    expect(run.status).toBe("failed");
    expect(run.counts).toMatchObject({ orders: 1, shipments_created: 1, already_posted: 1, errors: 1, completed: 0 });
    expect(run.error).toMatch(/1 of 1 orders failed .*nothing left to ship matches the ERP shipment of tracking number 1234567890/);
  });

  it("says why it left orders alone, in sync_runs and GET /tracking/status: not linked, not exported, no tracking number yet, claimed by another run", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    store.addOrder({ lines: [{ sku: "A", quantity: 1 }] }); // never pushed to us
    const unexported = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await receivedOrder(prisma, siteId, String(unexported.id));
    const waiting = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, waiting.id, [{ carrier: "UPS", tracking: "", lines: { A: 1 } }]); // no label yet
    const claimed = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, claimed.id, [{ carrier: "UPS", tracking: "1Z999AA10000000078", lines: { A: 1 } }]);
    // Another run claimed this number a moment ago and is posting it.
    await prisma.shipmentRecord.create({ data: { site_id: siteId, platform_order_id: String(claimed.id), tracking_number: "1Z999AA10000000078" } });
    const shipped = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, shipped.id, [{ carrier: "UPS", tracking: "1Z999AA10000000077", lines: { A: 1 } }]);
    await sync(siteId);
    const expected = counts({ orders: 5, shipments_created: 1, not_linked: 1, not_exported: 1, awaiting_shipment: 1, claimed_by_other_run: 1, completed: 1 });
    expect((await lastRun(siteId)).counts).toEqual(expected);
    expect(await statusCounts(siteId)).toEqual(expected);
    expect([unexported.shipments, waiting.shipments, claimed.shipments]).toEqual([[], [], []]);
  });

  it("completes an order once its last parcel ships, across runs", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    const order = store.addOrder({ lines: [{ sku: "A", quantity: 2 }] });
    const salesOrder = await erpOrder(siteId, order.id, [{ carrier: "UPS", tracking: "1Z999AA10000000001", lines: { A: 1 } }]);
    await sync(siteId);
    expect(order.status_id).toBe(3);
    erp.addShipment({ orderNumber: salesOrder, shipmentDate: "2026-11-19", shippingAgentCode: "UPS", packageTrackingNo: "1Z999AA10000000002", salesShipmentLines: itemLines({ A: 1 }) });
    await sync(siteId);
    expect(order.shipments).toHaveLength(2);
    expect(order.status_id).toBe(10);
    expect((await lastRun(siteId)).counts).toEqual(counts({ orders: 1, shipments_created: 1, already_posted: 1, completed: 1 }));
  });

  it("skips customer pickup and implausible tracking numbers, and posts an unmapped carrier without a carrier", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, { health_check_url: `${sink.url}/ping/a2` });
    const pickup = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    const placeholders = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    const courier = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, pickup.id, [{ carrier: "CPU", tracking: "PICKUP-123456" }]);
    await erpOrder(siteId, placeholders.id, [
      { carrier: "UPS", tracking: "N/A" },
      { carrier: "UPS", tracking: "0000000000" },
      { carrier: "UPS", tracking: "PENDING" },
      { carrier: "UPS", tracking: "" },
    ]);
    await erpOrder(siteId, courier.id, [{ carrier: "SPEEDY", tracking: "SPX-55512345" }]);

    const job = await sync(siteId);
    expect(await job.getState()).toBe("completed");
    expect(pickup.shipments).toEqual([]);
    expect(placeholders.shipments).toEqual([]);
    expect(courier.shipments).toMatchObject([{ tracking_number: "SPX-55512345", tracking_carrier: "", shipping_provider: "" }]);
    expect(JSON.parse(fakeA.requests.findLast((r) => r.method === "POST")!.body)).not.toHaveProperty("tracking_carrier");
    // An empty tracking number is a shipment without a label yet, not an invalid one.
    expect((await lastRun(siteId)).counts).toEqual(counts({ orders: 3, shipments_created: 1, skipped_carrier: 1, skipped_invalid: 3, unmapped_carrier: 1, completed: 1 }));
    expect(await healthPings()).toBe(1);
  });

  it("with auto-complete off leaves the shipped order at Shipped (2)", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, { auto_complete: false });
    const order = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, order.id, [{ carrier: "UPS", tracking: "1Z999AA10000000003" }]);
    await sync(siteId);
    expect(order.shipments).toHaveLength(1);
    expect(order.status_id).toBe(2);
    expect(fakeA.requests.filter((r) => r.method === "PUT" && r.path === `/stores/${store.hash}/v2/orders/${order.id}`)).toEqual([]);
    expect((await lastRun(siteId)).counts).toMatchObject({ shipments_created: 1, completed: 0 });
  });

  it("sends BigCommerce the same requests whatever send_customer_email says: the store's notification settings decide", async () => {
    const bodies = async (sendEmail: boolean) => {
      const { siteId, store } = await storefrontASite(prisma, key, fakeA, { send_customer_email: sendEmail });
      store.orderEmailStatuses = new Set();
      const order = store.addOrder({ id: 500, lines: [{ sku: "A", quantity: 1 }] });
      await erpOrder(siteId, order.id, [{ carrier: "UPS", tracking: "1Z999AA10000000004" }]);
      const before = fakeA.requests.length;
      await sync(siteId);
      expect(store.emails).toEqual([]);
      // Address and product ids differ from store to store.
      return fakeA.requests.slice(before).map((r) => `${r.method} ${r.path.replace(/^\/stores\/[^/]+/, "")} ${r.body.replace(/_id":\d+/g, '_id":#')}`);
    };
    expect(await bodies(false)).toEqual(await bodies(true));
  });

  it("reads only the site's channel when it has a channel filter", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, { channel_filter: { channel_id: 2, name: "Wholesale" } });
    const retail = store.addOrder({ channel_id: 1, lines: [{ sku: "A", quantity: 1 }] });
    const wholesale = store.addOrder({ channel_id: 2, lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, retail.id, [{ carrier: "UPS", tracking: "1Z999AA10000000005" }]);
    await erpOrder(siteId, wholesale.id, [{ carrier: "UPS", tracking: "1Z999AA10000000006" }]);
    await sync(siteId);
    expect(retail.shipments).toEqual([]);
    expect(wholesale.shipments).toHaveLength(1);
    const lists = fakeA.requests.filter((r) => r.path === `/stores/${store.hash}/v2/orders`);
    expect(lists.length).toBeGreaterThan(0);
    expect(lists.every((r) => r.query.get("channel_id") === "2")).toBe(true);
  });

  it("records a shipment that is on the store already (a run that stopped before recording it) instead of posting it again", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    const order = store.addOrder({ lines: [{ sku: "A", quantity: 1 }, { sku: "B", quantity: 1 }] });
    store.ship(order, { order_address_id: order.addresses[0]!, tracking_number: "1Z999AA10000000007", shipping_provider: "", tracking_carrier: "ups", items: [{ order_product_id: order.products[0]!.id, product_id: 1, quantity: 1 }] });
    await erpOrder(siteId, order.id, [
      { carrier: "UPS", tracking: "1Z999AA10000000007", lines: { A: 1 } },
      { carrier: "UPS", tracking: "1Z999AA10000000008", lines: { B: 1 } },
    ]);
    await sync(siteId);
    expect(order.shipments.map((s) => s.tracking_number)).toEqual(["1Z999AA10000000007", "1Z999AA10000000008"]);
    expect(order.status_id).toBe(10);
    expect((await lastRun(siteId)).counts).toMatchObject({ shipments_created: 1, already_posted: 1, completed: 1 });
    expect(await prisma.shipmentRecord.count({ where: { site_id: siteId, platform_shipment_id: String(order.shipments[0]!.id) } })).toBe(1);
  });

  it("keeps the claim when BigCommerce takes a number's shipment to one address and refuses the other, and a later run ships only the other", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    const order = store.addOrder({ addresses: 2, lines: [{ sku: "A", quantity: 1 }, { sku: "B", quantity: 1, address: 1 }] });
    await erpOrder(siteId, order.id, [{ carrier: "UPS", tracking: "1Z999AA10000000070", lines: { A: 1, B: 1 } }]);
    const shipments = `/stores/${store.hash}/v2/orders/${order.id}/shipments`;
    const refuseSecond = fakeA.intercept((request) =>
      request.method === "POST" && request.path === shipments && (JSON.parse(request.body) as { order_address_id: number }).order_address_id === order.addresses[1]
        ? fakeA.json(400, [{ status: 400, message: "The field 'order_address_id' is invalid." }])
        : undefined,
    );
    const first = await sync(siteId);
    refuseSecond();
    expect(await first.getState()).toBe("failed");
    expect(first.failedReason).toMatch(/tracking number 1Z999AA10000000070 is on 1 of its 2 shipping addresses.*The field 'order_address_id' is invalid/);
    expect(order.shipments.map((s) => s.order_address_id)).toEqual([order.addresses[0]]);
    expect(order.status_id).toBe(3);
    // Part of the number is on the store: the claim stays, as after a timeout.
    expect(await prisma.shipmentRecord.findMany({ where: { site_id: siteId }, select: { platform_shipment_id: true } })).toEqual([{ platform_shipment_id: null }]);

    // Once the claim is stale, a run finds the number on the first address only and ships the second.
    await prisma.shipmentRecord.updateMany({ where: { site_id: siteId }, data: { created_at: new Date(Date.now() - 15 * 60_000) } });
    const second = await sync(siteId);
    expect(await second.getState()).toBe("completed");
    expect(order.shipments.map((s) => [s.order_address_id, s.tracking_number, s.items.length])).toEqual([
      [order.addresses[0], "1Z999AA10000000070", 1],
      [order.addresses[1], "1Z999AA10000000070", 1],
    ]);
    expect(order.status_id).toBe(10);
    expect((await lastRun(siteId)).counts).toEqual(counts({ orders: 1, shipments_created: 1, completed: 1 }));
    expect(await prisma.shipmentRecord.findMany({ where: { site_id: siteId }, select: { platform_shipment_id: true } })).toEqual([
      { platform_shipment_id: order.shipments.map((s) => s.id).join(",") },
    ]);
  });

  it("works an order once when it shows up in two of the lists it reads (the merchant marked it Shipped meanwhile)", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    const order = store.addOrder({ lines: [{ sku: "A", quantity: 1 }, { sku: "B", quantity: 1 }] });
    const salesOrder = await erpOrder(siteId, order.id, [{ carrier: "UPS", tracking: "1Z999AA10000000080", lines: { A: 1 } }]);
    await sync(siteId);
    expect(order.status_id).toBe(3);
    erp.addShipment({ orderNumber: salesOrder, shipmentDate: "2026-11-19", shippingAgentCode: "UPS", packageTrackingNo: "1Z999AA10000000081", salesShipmentLines: itemLines({ B: 1 }) });
    // Read as Partially Shipped (3), then again among the Shipped (2) orders.
    const markShipped = fakeA.intercept((request) => {
      if (request.path === `/stores/${store.hash}/v2/orders` && request.query.get("status_id") === "2") order.status_id = 2;
      return undefined;
    });
    const before = fakeA.requests.length;
    await sync(siteId);
    markShipped();
    expect(order.shipments.map((s) => s.tracking_number)).toEqual(["1Z999AA10000000080", "1Z999AA10000000081"]);
    expect(order.status_id).toBe(10);
    expect(fakeA.requests.slice(before).filter((r) => r.method === "PUT" && r.path === `/stores/${store.hash}/v2/orders/${order.id}`)).toHaveLength(1);
    expect((await lastRun(siteId)).counts).toEqual(counts({ orders: 1, shipments_created: 1, already_posted: 1, completed: 1 }));
  });

  it("completes an order a stopped run left at Shipped (2) with its tracking posted, but not one it completed before that was set back", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    const order = store.addOrder({ status_id: 2, lines: [{ sku: "A", quantity: 1 }] });
    const reopened = store.addOrder({ status_id: 2, lines: [{ sku: "A", quantity: 1 }] });
    const notOurs = store.addOrder({ status_id: 2, lines: [{ sku: "A", quantity: 1 }] });
    // Shipped weeks ago, before anything could have stopped a run now.
    const old = store.addOrder({ status_id: 2, date_modified: new Date(Date.now() - 30 * 86_400_000), lines: [{ sku: "A", quantity: 1 }] });
    await prisma.shipmentRecord.createMany({
      data: [
        { site_id: siteId, platform_order_id: String(order.id), tracking_number: "1Z999AA10000000009", platform_shipment_id: "77" },
        { site_id: siteId, platform_order_id: String(reopened.id), tracking_number: "1Z999AA10000000019", platform_shipment_id: "78", order_completed_at: new Date() },
        { site_id: siteId, platform_order_id: String(old.id), tracking_number: "1Z999AA10000000029", platform_shipment_id: "79" },
      ],
    });
    await sync(siteId);
    expect([order.status_id, reopened.status_id, notOurs.status_id, old.status_id]).toEqual([10, 2, 2, 2]);
    const shippedList = fakeA.requests.find((r) => r.path === `/stores/${store.hash}/v2/orders` && r.query.get("status_id") === "2")!;
    expect(Date.parse(shippedList.query.get("min_date_modified")!)).toBeLessThan(Date.now() - 6 * 86_400_000);
    expect((await lastRun(siteId)).counts).toMatchObject({ orders: 0, completed: 1 });
  });

  it("waits out 429s (X-Rate-Limit-Time-Reset-Ms) and finishes the run", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    const order = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, order.id, [{ carrier: "UPS", tracking: "1Z999AA10000000010" }]);
    store.throttle = { times: 3, resetMs: 150 };
    const before = fakeA.requests.length;
    const job = await sync(siteId);
    expect(await job.getState()).toBe("completed");
    expect(fakeA.requests.slice(before).filter((r) => r.status === 429)).toHaveLength(3);
    expect(order.status_id).toBe(10);
  });

  it("fails the run for BullMQ to retry when the storefront asks to wait longer than the bound, and pings no health check", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, { health_check_url: `${sink.url}/ping/a3` });
    store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    store.throttle = { times: 1, resetMs: 60_000 };
    const started = Date.now();
    const job = await sync(siteId);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await job.getState()).toBe("failed");
    expect(job.failedReason).toBe("storefront_a is rate limiting: it asked for another 60000 ms after 0 ms of waiting");
    const run = await lastRun(siteId);
    expect(run).toMatchObject({ status: "failed", error: job.failedReason });
    expect(await healthPings()).toBe(0);
    expect(await prisma.syncError.findFirst({ where: { site_id: siteId } })).toMatchObject({ source: "tracking_sync", message: job.failedReason });
  });

  it("puts the run back for the ERP's 429 with Retry-After without using its one attempt, then posts the tracking", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA);
    const order = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, order.id, [{ carrier: "UPS", tracking: "1Z999AA10000000013" }]);
    erp.rateLimited = 1;
    erp.retryAfterSeconds = 1;
    const job = await sync(siteId);
    expect(await job.getState()).toBe("completed");
    expect(job.attemptsMade).toBe(1);
    expect(erp.requests.filter((r) => r.status === 429)).toHaveLength(1);
    expect(logLines(harness.worker, "job delayed").filter((line) => line.job_id === job.id)).toMatchObject([{ delay_ms: 1000 }]);
    expect(order.status_id).toBe(10);
    expect((await lastRun(siteId)).status).toBe("completed");
    // A wait the ERP asked for is no failure to report.
    expect(await prisma.syncError.count({ where: { site_id: siteId } })).toBe(0);
  });

  it("goes on past an order the store refuses, then fails the run naming it, records it for operators and pings no health check", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, { health_check_url: `${sink.url}/ping/a4` });
    const refused = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    const fine = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, refused.id, [{ carrier: "UPS", tracking: "1Z999AA10000000011", lines: { "NOT-ON-ORDER": 1 } }]);
    await erpOrder(siteId, fine.id, [{ carrier: "UPS", tracking: "1Z999AA10000000012" }]);
    const job = await sync(siteId, { attempts: 3 });
    expect(await job.getState()).toBe("failed");
    expect(job.attemptsMade).toBe(1);
    expect(fine.status_id).toBe(10);
    expect(refused.shipments).toEqual([]);
    expect(job.failedReason).toMatch(new RegExp(`^tracking sync of site ${siteId}: 1 of 2 orders failed \\(first: order ${refused.id}: `));
    expect((await lastRun(siteId)).counts).toMatchObject({ orders: 2, shipments_created: 1, completed: 1, errors: 1 });
    expect(await prisma.syncError.findMany({ where: { site_id: siteId } })).toMatchObject([{ source: "tracking_sync", order_number: String(refused.id) }]);
    // Nothing was posted for the refused number, so the next run may try it again.
    expect(await prisma.shipmentRecord.count({ where: { site_id: siteId, platform_order_id: String(refused.id) } })).toBe(0);
    expect(await healthPings()).toBe(0);
  });

  it("ends quietly for a site that was deleted or no longer has tracking on", async () => {
    const { siteId, store } = await storefrontASite(prisma, key, fakeA, { tracking_enabled: false });
    store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    const disabled = await sync(siteId);
    expect(await disabled.getState()).toBe("completed");
    expect(disabled.returnvalue).toEqual({ skipped: "tracking_disabled" });
    const gone = await sync(987_654);
    expect(gone.returnvalue).toEqual({ skipped: "site_not_found" });
    expect(await prisma.syncRun.count({ where: { site_id: siteId } })).toBe(0);
    expect(fakeA.requests.filter((r) => r.path.startsWith(`/stores/${store.hash}/`))).toEqual([]);
  });
});

describe("tracking sync on storefront_b (WooCommerce)", () => {
  it("with the Shipment Tracking extension posts a tracking item per number, completes through the batch endpoint, e-mails once, and a second run creates nothing", async () => {
    fakeB.shop.shipmentTracking = true;
    const siteId = await storefrontBSite(prisma, key, fakeB, { health_check_url: `${sink.url}/ping/b1` });
    const order = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 2 }] });
    await erpOrder(siteId, order.number, [
      { carrier: "fedex", tracking: "794612345678", date: "2026-11-18" },
      { carrier: "ONTRAC", tracking: "C11111111111111", date: "2026-11-19" },
    ]);
    const job = await sync(siteId);
    expect(await job.getState()).toBe("completed");
    expect(order.trackings.map((t) => [t.tracking_number, t.tracking_provider, t.date_shipped])).toEqual([
      ["794612345678", "fedex", String(Date.parse("2026-11-18") / 1000)],
      ["C11111111111111", "ontrac", String(Date.parse("2026-11-19") / 1000)],
    ]);
    expect(order.status).toBe("completed");
    expect(fakeB.requests.filter((r) => r.method === "POST").map((r) => r.path)).toEqual([
      `/wp-json/wc-shipment-tracking/v3/orders/${order.id}/shipment-trackings`,
      `/wp-json/wc-shipment-tracking/v3/orders/${order.id}/shipment-trackings`,
      "/wp-json/wc/v3/orders/batch",
    ]);
    expect(fakeB.shop.emails).toMatchObject([{ kind: "completed_order", to: order.email, tracking_numbers: ["794612345678", "C11111111111111"] }]);
    expect((await lastRun(siteId)).counts).toEqual(counts({ orders: 1, shipments_created: 2, completed: 1 }));
    expect(await healthPings()).toBe(1);

    // The merchant reopens the order: it is not completed again until a new tracking number comes.
    order.status = "processing";
    fakeB.requests.length = 0;
    await sync(siteId);
    expect(order.trackings).toHaveLength(2);
    expect(order.status).toBe("processing");
    expect(fakeB.requests.filter((r) => r.method !== "GET")).toEqual([]);
    expect((await lastRun(siteId)).counts).toEqual(counts({ orders: 1, already_posted: 2 }));
  });

  it("completes an order a stopped run left processing after posting its tracking", async () => {
    fakeB.shop.shipmentTracking = true;
    const siteId = await storefrontBSite(prisma, key, fakeB);
    const order = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, order.number, [{ carrier: "UPS", tracking: "1Z999AA10000000050" }]);
    // The tracking landed and was recorded, then the run died before the batch completion.
    const item = fakeB.shop.addTracking(order, { tracking_number: "1Z999AA10000000050", tracking_provider: "ups" });
    await prisma.shipmentRecord.create({ data: { site_id: siteId, platform_order_id: String(order.id), tracking_number: "1Z999AA10000000050", platform_shipment_id: item.tracking_id } });
    await sync(siteId);
    expect(order.trackings).toHaveLength(1);
    expect(order.status).toBe("completed");
    expect((await lastRun(siteId)).counts).toEqual(counts({ orders: 1, already_posted: 1, completed: 1 }));
  });

  it("with the extension, auto-complete off and send_customer_email on, tells the customer with a customer note; with send_customer_email off, says nothing", async () => {
    fakeB.shop.shipmentTracking = true;
    const notifying = await storefrontBSite(prisma, key, fakeB, { auto_complete: false, send_customer_email: true });
    const silentSite = await storefrontBSite(prisma, key, fakeB, { auto_complete: false, send_customer_email: false });
    const told = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    const quiet = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(notifying, told.number, [{ carrier: "UPS", tracking: "1Z999AA10000000020" }]);
    await erpOrder(silentSite, quiet.number, [{ carrier: "UPS", tracking: "1Z999AA10000000021" }]);
    await sync(notifying);
    await sync(silentSite);
    expect([told.status, quiet.status]).toEqual(["processing", "processing"]);
    expect([told.trackings.length, quiet.trackings.length]).toEqual([1, 1]);
    expect(fakeB.shop.emails).toMatchObject([{ kind: "customer_note", order_id: told.id, text: "Your order has shipped via ups. Tracking number: 1Z999AA10000000020" }]);
    expect(quiet.notes).toEqual([]);
  });

  it("without the extension puts the tracking in a customer note when send_customer_email is on, and a private note when it is off", async () => {
    const emailing = await storefrontBSite(prisma, key, fakeB, { send_customer_email: true });
    const privateSite = await storefrontBSite(prisma, key, fakeB, { send_customer_email: false, auto_complete: false });
    const told = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    const kept = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(emailing, told.number, [{ carrier: "USPS", tracking: "9400111899223344556677" }]);
    await erpOrder(privateSite, kept.number, [{ carrier: "XPO", tracking: "XPO-77788899" }]);
    await sync(emailing);
    await sync(privateSite);

    expect(fakeB.requests.some((r) => r.path.includes("shipment-trackings"))).toBe(false);
    expect(told.notes.find((n) => n.note.includes("Tracking"))).toMatchObject({ note: "Your order has shipped via usps. Tracking number: 9400111899223344556677", customer_note: true });
    expect(told.status).toBe("completed");
    expect(kept.notes).toMatchObject([{ note: "Your order has shipped. Tracking number: XPO-77788899", customer_note: false }]);
    expect(kept.status).toBe("processing");
    expect(fakeB.shop.emails.map((e) => [e.order_id, e.kind])).toEqual([
      [told.id, "customer_note"],
      [told.id, "completed_order"],
    ]);
    expect((await lastRun(privateSite)).counts).toEqual(counts({ orders: 1, shipments_created: 1, unmapped_carrier: 1 }));
  });

  it("after a run that stopped between posting a note and recording it, finds the note instead of posting it again", async () => {
    const siteId = await storefrontBSite(prisma, key, fakeB, { auto_complete: false });
    const posted = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    const lost = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    const fresh = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, posted.number, [{ carrier: "UPS", tracking: "1Z999AA10000000030" }]);
    await erpOrder(siteId, lost.number, [{ carrier: "UPS", tracking: "1Z999AA10000000031" }]);
    await erpOrder(siteId, fresh.number, [{ carrier: "UPS", tracking: "1Z999AA10000000032" }]);
    // Claims left by a run that died 15 minutes ago: one after its note landed, one before.
    fakeB.shop.addNote(posted, "Your order has shipped via ups. Tracking number: 1Z999AA10000000030", true);
    const stale = new Date(Date.now() - 15 * 60_000);
    await prisma.shipmentRecord.createMany({
      data: [
        { site_id: siteId, platform_order_id: String(posted.id), tracking_number: "1Z999AA10000000030", created_at: stale },
        { site_id: siteId, platform_order_id: String(lost.id), tracking_number: "1Z999AA10000000031", created_at: stale },
        // A claim another run made a moment ago: left to that run.
        { site_id: siteId, platform_order_id: String(fresh.id), tracking_number: "1Z999AA10000000032", created_at: new Date() },
      ],
    });
    await sync(siteId);
    expect(posted.notes).toHaveLength(1);
    expect(lost.notes.map((n) => n.note)).toEqual(["Your order has shipped via ups. Tracking number: 1Z999AA10000000031"]);
    expect(fresh.notes).toEqual([]);
    expect((await lastRun(siteId)).counts).toMatchObject({ orders: 3, shipments_created: 1, already_posted: 1, claimed_by_other_run: 1 });
    const records = await prisma.shipmentRecord.findMany({ where: { site_id: siteId }, orderBy: { tracking_number: "asc" } });
    expect(records.map((r) => r.platform_shipment_id)).toEqual([String(posted.notes[0]!.id), String(lost.notes[0]!.id), null]);
  });

  it("posts a number whose claim went stale once when two runs of the site overlap", async () => {
    const siteId = await storefrontBSite(prisma, key, fakeB, { auto_complete: false });
    const order = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, order.number, [{ carrier: "UPS", tracking: "1Z999AA10000000060" }]);
    await prisma.shipmentRecord.create({ data: { site_id: siteId, platform_order_id: String(order.id), tracking_number: "1Z999AA10000000060", created_at: new Date(Date.now() - 15 * 60_000) } });
    // The order's notes are answered once both runs ask (or after a second): by then each has read the claim as stale.
    let asked = 0;
    let bothAsked!: () => void;
    const together = new Promise<void>((resolve) => (bothAsked = resolve));
    const holdNotes = fakeB.intercept(async (request) => {
      if (request.method !== "GET" || request.path !== `/wp-json/wc/v3/orders/${order.id}/notes`) return undefined;
      asked += 1;
      if (asked === 2) bothAsked();
      await Promise.race([together, new Promise((resolve) => setTimeout(resolve, 1000))]);
      return undefined;
    });
    // The scheduled run and a manual one (their job ids differ).
    const runs = await Promise.all([sync(siteId), sync(siteId)]);
    holdNotes();
    expect(await Promise.all(runs.map((job) => job.getState()))).toEqual(["completed", "completed"]);
    expect(order.notes.map((n) => n.note)).toEqual(["Your order has shipped via ups. Tracking number: 1Z999AA10000000060"]);
    const created = await prisma.syncRun.findMany({ where: { site_id: siteId }, select: { counts: true } });
    expect(created.map((run) => (run.counts as { shipments_created: number }).shipments_created).sort()).toEqual([0, 1]);
    expect(await prisma.shipmentRecord.findMany({ where: { site_id: siteId }, select: { platform_shipment_id: true } })).toEqual([{ platform_shipment_id: String(order.notes[0]!.id) }]);
  });

  it("keeps the tracking it posted when the customer note fails, and adds the note on the next run", async () => {
    fakeB.shop.shipmentTracking = true;
    const siteId = await storefrontBSite(prisma, key, fakeB, { auto_complete: false, send_customer_email: true });
    const order = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, order.number, [{ carrier: "UPS", tracking: "1Z999AA10000000090" }]);
    const notesDown = fakeB.intercept((request) =>
      request.method === "POST" && request.path === `/wp-json/wc/v3/orders/${order.id}/notes`
        ? fakeB.criticalError()
        : undefined,
    );
    const first = await sync(siteId);
    notesDown();
    expect(await first.getState()).toBe("completed");
    expect(order.trackings.map((t) => t.tracking_number)).toEqual(["1Z999AA10000000090"]);
    expect(fakeB.shop.emails).toEqual([]);
    expect((await lastRun(siteId)).counts).toEqual(counts({ orders: 1, shipments_created: 1 }));

    await sync(siteId);
    expect(order.trackings).toHaveLength(1);
    expect(fakeB.shop.emails).toMatchObject([{ kind: "customer_note", order_id: order.id, text: "Your order has shipped via ups. Tracking number: 1Z999AA10000000090" }]);
    expect((await lastRun(siteId)).counts).toEqual(counts({ orders: 1, already_posted: 1 }));
    await sync(siteId);
    expect(fakeB.shop.emails).toHaveLength(1);
  });

  it("waits out a 429 with Retry-After", async () => {
    fakeB.shop.shipmentTracking = true;
    const siteId = await storefrontBSite(prisma, key, fakeB);
    const order = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, order.number, [{ carrier: "UPS", tracking: "1Z999AA10000000040" }]);
    fakeB.shop.throttle = { times: 1, retryAfterSeconds: 1 };
    const started = Date.now();
    const job = await sync(siteId);
    expect(await job.getState()).toBe("completed");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(fakeB.requests.filter((r) => r.status === 429)).toHaveLength(1);
    expect(order.trackings).toHaveLength(1);
  });

  it("skips customer pickup and invalid numbers, and posts an unmapped carrier without a provider", async () => {
    fakeB.shop.shipmentTracking = true;
    const siteId = await storefrontBSite(prisma, key, fakeB, { auto_complete: false });
    const order = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await erpOrder(siteId, order.number, [
      { carrier: "CPU", tracking: "" },
      { carrier: "UPS", tracking: "TBD" },
      { carrier: "ACME", tracking: "AC123456789" },
    ]);
    await sync(siteId);
    expect(order.trackings).toMatchObject([{ tracking_number: "AC123456789", tracking_provider: "" }]);
    expect(JSON.parse(fakeB.requests.find((r) => r.path.includes("shipment-trackings") && r.method === "POST")!.body)).toEqual({ tracking_number: "AC123456789", date_shipped: "2026-11-18" });
    expect((await lastRun(siteId)).counts).toEqual(counts({ orders: 1, shipments_created: 1, skipped_carrier: 1, skipped_invalid: 1, unmapped_carrier: 1 }));
  });

  it("says in sync_runs and GET /tracking/status which orders it left alone because they are not linked or not exported", async () => {
    fakeB.shop.shipmentTracking = true;
    const siteId = await storefrontBSite(prisma, key, fakeB);
    fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] }); // never pushed to us
    fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] }); // nor this one
    const unexported = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    await receivedOrder(prisma, siteId, unexported.number);
    await sync(siteId);
    const expected = counts({ orders: 3, not_linked: 2, not_exported: 1 });
    expect((await lastRun(siteId)).counts).toEqual(expected);
    expect(await statusCounts(siteId)).toEqual(expected);
    expect(unexported.trackings).toEqual([]);
  });

  it("reads the orders in the WooCommerce statuses the status filters stand for", async () => {
    const siteId = await storefrontBSite(prisma, key, fakeB, { status_filters: "9,3,12" });
    await sync(siteId);
    const list = fakeB.requests.find((r) => r.path === "/wp-json/wc/v3/orders")!;
    expect(list.query.get("status")).toBe("processing,on-hold");
    expect(list.query.get("per_page")).toBe("100");
    await until(async () => (await lastRun(siteId)).status === "completed", () => "the run to finish");
  });
});

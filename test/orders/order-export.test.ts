import { createLogger, createPrisma, createRedis, jobId, Queues, type PrismaClient, type RedisClient } from "@mw/platform";
import { ErpClient, type SalesOrderInput } from "@mw/providers/erp";
import { MAX_JOB_DEFERRALS } from "@mw/worker/runtime/attempts";
import { ensureSchedules } from "@mw/worker/runtime/schedules";
import { operatorAlertJobId } from "@mw/domains/notifications";
import { exportOrder, orderDetailView, orderExportJob, orderExportJobId, orderSweepJob, orderVerifyJob, orderVerifyJobId, verifyOrder } from "@mw/domains/orders";
import type { Job, Queue } from "bullmq";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeErp } from "../fakes/erp.ts";
import { testConfig } from "../support/api.ts";
import { failure } from "../support/errors.ts";
import { stallTwice } from "../support/failed-jobs.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged, logLines } from "../support/processes.ts";
import { settled, until } from "../support/wait.ts";

// The worker's runtime (in this process), against real MariaDB, Redis
// and a fake ERP that speaks the contract of docs/erp-api.md.
const TOKEN = "erp-test-token-5f2b9c";
const USER_AGENT = /^Middleware\/\d+\.\d+\.\d+$/;
const ORDER_NUMBER = "100045";

let prisma: PrismaClient;
let redis: RedisClient;
let queues: Queues;
let queue: Queue;
let erp: FakeErp;
let siteId: number;

beforeAll(async () => {
  prisma = createPrisma(process.env.DATABASE_URL!);
  redis = createRedis(process.env.REDIS_URL!);
  queues = new Queues(redis, process.env.QUEUE_PREFIX!);
  queue = queues.get("orders");
  erp = await new FakeErp(TOKEN).start();
  siteId = (await prisma.site.create({ data: { name: "Export shop", platform: "storefront_a", site_url: "https://shop.example" } })).id;
});

beforeEach(async () => {
  await queue.obliterate({ force: true });
  erp.reset();
  await prisma.order.deleteMany();
  await prisma.syncError.deleteMany();
});

afterAll(async () => {
  await queue.obliterate({ force: true });
  await erp.stop();
  await queues.close();
  await redis.quit();
  await prisma.$disconnect();
});

/** An order as the intake stores it: six lines (two catalogue SKUs, all four system SKUs) and both addresses. */
async function createOrder(number = ORDER_NUMBER, options: { ageMs?: number; imported?: boolean } = {}) {
  return prisma.order.create({
    data: {
      site_id: siteId,
      number,
      trans_id: "TX-778899",
      dateadded: new Date("2025-03-14T15:30:00Z"),
      payment_method: "pay_1",
      pay_1: "1",
      contact_id: 27111,
      shipping_agent_code: "FEDEX",
      shipping_agent_service: "GROUND_HOME_DELIVERY",
      payload_hash: "a".repeat(64),
      created_at: new Date(Date.now() - (options.ageMs ?? 0)),
      ...(options.imported && { imported: 1, erp_sales_order_number: "SO-000042", imported_at: new Date() }),
      lines: {
        create: [
          { line: 1, sku: "WIDGET-1", quantity: 2, price: "19.99" },
          { line: 2, sku: "GADGET-7", quantity: 1, price: "12.50", discount_amount: "2.50", coupon_code: "SPRING5" },
          { line: 3, sku: "COUPON", quantity: 1, price: "5.00", coupon_code: "SPRING5" },
          { line: 4, sku: "SHIPPING", quantity: 1, price: "7.95" },
          { line: 5, sku: "SALES TAX", quantity: 1, price: "3.12" },
          { line: 6, sku: "STORE CREDIT", quantity: 1, price: "-10.00" },
        ],
      },
      addresses: {
        create: [
          {
            type: 1,
            first_name: "Jane",
            last_name: "Doe",
            company: "ACME",
            address1: "1 Main St",
            city: "Springfield",
            state: "IL",
            postal_code: "62701",
            country: "US",
            phone: "555-0100",
            email: "jane@example.com",
          },
          {
            type: 0,
            first_name: "John",
            last_name: "Doe",
            address1: "9 Elm Rd",
            address2: "Apt 4",
            city: "Chicago",
            state: "IL",
            postal_code: "60601",
            country: "US",
            email: "john@example.com",
          },
        ],
      },
    },
  });
}

/** What the ERP must receive for createOrder(number), per docs/erp-api.md. */
function expectedSalesOrder(number = ORDER_NUMBER): SalesOrderInput {
  return {
    externalDocumentNumber: `${siteId}-${number}`,
    orderDate: "2025-03-14",
    customerNumber: "27111",
    shippingAgentCode: "FEDEX",
    shippingAgentServiceCode: "GROUND_HOME_DELIVERY",
    externalTransactionId: "TX-778899",
    email: "jane@example.com",
    phoneNumber: "555-0100",
    billToName: "Jane Doe",
    billToCompany: "ACME",
    billToAddressLine1: "1 Main St",
    billToCity: "Springfield",
    billToState: "IL",
    billToPostCode: "62701",
    billToCountry: "US",
    shipToName: "John Doe",
    shipToAddressLine1: "9 Elm Rd",
    shipToAddressLine2: "Apt 4",
    shipToCity: "Chicago",
    shipToState: "IL",
    shipToPostCode: "60601",
    shipToCountry: "US",
    salesOrderLines: [
      { sequence: 1, lineType: "Item", lineObjectNumber: "WIDGET-1", quantity: 2, unitPrice: 19.99, discountAmount: 0 },
      { sequence: 2, lineType: "Item", lineObjectNumber: "GADGET-7", quantity: 1, unitPrice: 12.5, discountAmount: 2.5, description: "SPRING5" },
      { sequence: 3, lineType: "Account", lineObjectNumber: "COUPON", quantity: 1, unitPrice: -5, discountAmount: 0, description: "SPRING5" },
      { sequence: 4, lineType: "Account", lineObjectNumber: "SHIPPING", quantity: 1, unitPrice: 7.95, discountAmount: 0 },
      { sequence: 5, lineType: "Account", lineObjectNumber: "SALES TAX", quantity: 1, unitPrice: 3.12, discountAmount: 0 },
      { sequence: 6, lineType: "Account", lineObjectNumber: "STORE CREDIT", quantity: 1, unitPrice: -10, discountAmount: 0 },
    ],
  };
}

function exportJob(orderId: number, options: { suffix?: string; attempts?: number; retryDelayMs?: number } = {}): Promise<Job> {
  const id = options.suffix ? jobId(orderExportJobId(orderId), options.suffix) : orderExportJobId(orderId);
  return queues.add(
    orderExportJob,
    { order_id: orderId },
    {
      jobId: id,
      ...(options.attempts && { attempts: options.attempts }),
      ...(options.retryDelayMs && { backoff: { type: "fixed", delay: options.retryDelayMs } }),
    },
  );
}

async function exportJobIds(): Promise<string[]> {
  const jobs = await queue.getJobs(["waiting", "active", "delayed", "prioritized", "completed", "failed"]);
  return jobs.filter((job) => job.name === "order-export").map((job) => job.id!).sort();
}

function posts() {
  return erp.requests.filter((request) => request.method === "POST");
}

function pendingVerify(): Promise<number> {
  return prisma.order.count({ where: { imported: 1, verified: 0 } });
}

/** The export's own calls: the read-back of the verification job that follows is not part of them. */
function exportCalls() {
  return erp.requests.filter((request) => !/salesOrderLines|filter=number(%20|\+| )eq/.test(request.url));
}

function startWorker(env: Record<string, string>): Promise<InProcessWorker> {
  return startInProcessWorker({ WORKER_QUEUES: "orders", HTTP_TIMEOUT_MS: "2000", ...env });
}

describe("ErpClient against the contract", () => {
  function client(overrides: { ERP_TOKEN?: string; HTTP_TIMEOUT_MS?: number } = {}): ErpClient {
    return ErpClient.fromConfig({ ...testConfig(), ERP_BASE_URL: erp.url, ERP_TOKEN: TOKEN, HTTP_TIMEOUT_MS: 2000, ...overrides })!;
  }

  it("is unconfigured without ERP_BASE_URL", () => {
    expect(ErpClient.fromConfig({ ...testConfig(), ERP_BASE_URL: undefined, ERP_TOKEN: TOKEN, HTTP_TIMEOUT_MS: 2000 })).toBeNull();
  });

  it("finds a sales order by external number with an OData filter, quoting included", async () => {
    const seeded = erp.seed({ ...expectedSalesOrder(), externalDocumentNumber: "3-O'BRIEN-1" });
    expect(await client().findSalesOrderByExternalNumber("3-O'BRIEN-1")).toMatchObject({ id: seeded.id, number: "SO-100001" });
    expect(await client().findSalesOrderByExternalNumber("3-O'BRIEN-2")).toBeNull();
    const url = new URL(erp.requests[0]!.url, "http://erp");
    expect(url.pathname).toBe("/api/v2.0/companies(8f1c2a9e)/salesOrders");
    expect(url.searchParams.get("$filter")).toBe("externalDocumentNumber eq '3-O''BRIEN-1'");
    expect(url.searchParams.get("$top")).toBe("1");
    expect(erp.requests[0]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(erp.requests[0]!.headers["user-agent"]).toMatch(USER_AGENT);
  });

  it("carries the ERP's own message into permanent errors (400, 401) without leaking the token", async () => {
    const invalid = await failure(client().createSalesOrder({ ...expectedSalesOrder(), customerNumber: "" }));
    expect(invalid.permanent).toBe(true);
    expect(invalid.message).toBe("ERP answered HTTP 400: Missing or invalid property 'customerNumber'.");
    expect(invalid.data).toMatchObject({ upstream_status: 400, erp_code: "BadRequest" });

    const denied = await failure(client({ ERP_TOKEN: "wrong-token" }).findSalesOrderByExternalNumber("x"));
    expect(denied.permanent).toBe(true);
    expect(denied.message).toBe("ERP answered HTTP 401: The credentials provided are incorrect.");
    expect(denied.message).not.toContain("wrong-token");
    const anonymous = await failure(client({ ERP_TOKEN: undefined }).findSalesOrderByExternalNumber("x"));
    expect(anonymous.data).toMatchObject({ upstream_status: 401 });
    expect(erp.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it("treats 429, 503, a dropped connection and a hang past the timeout as transient", async () => {
    erp.rateLimited = 1;
    const limited = await failure(client().findSalesOrderByExternalNumber("x"));
    expect(limited.permanent).toBe(false);
    expect(limited.message).toBe("ERP answered HTTP 429: Too many requests reached. Please retry later.");
    expect(limited.data).toMatchObject({ upstream_status: 429, retry_after: "2" });

    erp.outage = "unavailable";
    const down = await failure(client().findSalesOrderByExternalNumber("x"));
    expect(down.permanent).toBe(false);
    expect(down.message).toMatch(/^ERP answered HTTP 503: The service is temporarily unavailable/);

    erp.outage = "drop";
    const dropped = await failure(client().findSalesOrderByExternalNumber("x"));
    expect(dropped.permanent).toBe(false);
    expect(dropped.code).toBe("upstream_unreachable");

    erp.outage = "hang";
    const started = Date.now();
    const hung = await failure(client({ HTTP_TIMEOUT_MS: 300 }).findSalesOrderByExternalNumber("x"));
    expect(hung.permanent).toBe(false);
    expect(hung.message).toBe(`ERP request failed: ETIMEDOUT, no answer in time at ${new URL(erp.url).origin} (ERP_BASE_URL): check ERP_BASE_URL and that the ERP is up`);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("asks for the shipments of many sales orders 20 at a time with an or filter, following @odata.nextLink", async () => {
    const numbers = Array.from({ length: 45 }, (_, i) => `SO-${i}`);
    for (const number of numbers) erp.addShipment({ orderNumber: number, shipmentDate: "2026-11-18", shippingAgentCode: "UPS", packageTrackingNo: `1Z${number}`, salesShipmentLines: [] });
    erp.addShipment({ orderNumber: "O'NEIL", shipmentDate: "2026-11-18", shippingAgentCode: "UPS", packageTrackingNo: "1ZQUOTE", salesShipmentLines: [] });
    erp.addShipment({ orderNumber: "SO-other", shipmentDate: "2026-11-18", shippingAgentCode: "UPS", packageTrackingNo: "1ZOTHER", salesShipmentLines: [] });
    erp.pageSize = 15;
    const found = await client().listSalesShipments([...numbers, "O'NEIL", "SO-0"]);
    expect(found.map((s) => s.orderNumber).sort()).toEqual([...numbers, "O'NEIL"].sort());
    const asked = erp.requests.map((r) => new URL(r.url, "http://erp").searchParams);
    const filters = [...new Set(asked.map((query) => query.get("$filter")))];
    expect(filters).toHaveLength(3);
    expect(filters[0]).toBe(numbers.slice(0, 20).map((n) => `orderNumber eq '${n}'`).join(" or "));
    expect(filters[2]).toContain("orderNumber eq 'O''NEIL'");
    // The two full groups of 20 span two pages of 15: their second pages follow the server's link.
    expect(asked.map((query) => query.get("$skip"))).toEqual([null, "15", null, "15", null]);
  });

  it("refuses a next-page link on another host instead of sending the ERP token there", async () => {
    for (let i = 0; i < 3; i += 1) erp.addItem(`SKU-${i}`, i);
    erp.pageSize = 2;
    erp.nextLinkOrigin = "http://127.0.0.1:9";
    const refused = await client().listItems().catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 502, code: "upstream_error", message: "ERP named a next page on another host (http://127.0.0.1:9); not followed." });
    expect(erp.requests).toHaveLength(1);
  });

  it("lists every item with its stock across pages, or only the items asked for", async () => {
    for (let i = 0; i < 230; i += 1) erp.addItem(`SKU-${i}`, i);
    expect(await client().listItems()).toHaveLength(230);
    expect(erp.requests).toHaveLength(3);
    expect(await client().listItems(["SKU-7", "SKU-9"])).toMatchObject([
      { number: "SKU-7", inventory: 7 },
      { number: "SKU-9", inventory: 9 },
    ]);
  });

  it("the fake pages a collection with @odata.nextLink", async () => {
    for (const n of [1, 2, 3]) erp.seed({ ...expectedSalesOrder(), externalDocumentNumber: `9-${n}` });
    erp.pageSize = 2;
    const headers = { authorization: `Bearer ${TOKEN}` };
    const first = (await (await fetch(`${erp.url}/salesOrders?$top=3`, { headers })).json()) as { value: unknown[]; "@odata.nextLink"?: string };
    expect(first.value).toHaveLength(2);
    const second = (await (await fetch(first["@odata.nextLink"]!, { headers })).json()) as typeof first;
    expect(second.value).toMatchObject([{ externalDocumentNumber: "9-3" }]);
    expect(second["@odata.nextLink"]).toBeUndefined();
  });
});

describe("order export with the ERP configured", () => {
  let worker: InProcessWorker;

  beforeAll(async () => {
    worker = await startWorker({ ERP_BASE_URL: erp.url, ERP_TOKEN: TOKEN });
    await worker.waitFor(logged("workers started"));
  });

  afterAll(() => worker.stop());
  // Each export queues a read-back: let it end here, before the next test resets the fake and the tables under it.
  afterEach(() => until(async () => (await queue.getActiveCount()) + (await queue.getWaitingCount()) === 0, () => "this test's jobs to end"));

  it("exports an order once, with the full mapping, and a second job for it does nothing", async () => {
    const order = await createOrder();
    const done = await settled(queue, await exportJob(order.id), worker);
    expect(await done.getState()).toBe("completed");
    expect(done.returnvalue).toEqual({ erp_sales_order_number: "SO-100001" });

    const stored = await prisma.order.findUniqueOrThrow({ where: { id: order.id } });
    expect(stored).toMatchObject({ imported: 1, erp_sales_order_number: "SO-100001" });
    expect(stored.imported_at).toBeInstanceOf(Date);

    expect(exportCalls().map((r) => `${r.method} ${r.status}`)).toEqual(["GET 200", "POST 201"]);
    const post = posts()[0]!;
    expect(post.url).toBe("/api/v2.0/companies(8f1c2a9e)/salesOrders");
    expect(post.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(post.headers["user-agent"]).toMatch(USER_AGENT);
    expect(post.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(post.body)).toEqual(expectedSalesOrder());
    expect(erp.salesOrders).toMatchObject([{ number: "SO-100001", externalDocumentNumber: `${siteId}-${ORDER_NUMBER}`, totalAmountExcludingTax: 46.05 }]);

    const again = await settled(queue, await exportJob(order.id, { suffix: "again" }), worker);
    expect(await again.getState()).toBe("completed");
    expect(again.returnvalue).toEqual({ skipped: "already_exported", erp_sales_order_number: "SO-100001" });
    expect(exportCalls()).toHaveLength(2);

    expect(logLines(worker, "order exported")).toMatchObject([{ order_id: order.id, order_number: ORDER_NUMBER, erp_sales_order_number: "SO-100001" }]);
    expect(worker.output()).not.toContain(TOKEN);
    // Bull Board's Logs tab tells the same story, step by step.
    const { logs } = await queue.getJobLogs(done.id!);
    expect(logs.map((line) => line.replace(/^\d\d:\d\d:\d\d /, "").replace(/ duration_ms=\d+/, ""))).toEqual([
      "INFO job started",
      `INFO exporting order to the ERP order_id=${order.id} order_number=${ORDER_NUMBER} site_id=${siteId}`,
      `INFO ERP sales order created order_id=${order.id} order_number=${ORDER_NUMBER} site_id=${siteId} external_document_number=${siteId}-${ORDER_NUMBER} erp_sales_order_number=SO-100001`,
      `INFO order exported order_id=${order.id} order_number=${ORDER_NUMBER} site_id=${siteId} erp_sales_order_number=SO-100001`,
      "INFO job completed",
    ]);
    expect(await prisma.syncError.count()).toBe(0);
  });

  it("reads the exported order back and sets verified once the ERP holds its number, lines and total", async () => {
    const order = await createOrder();
    expect(await pendingVerify()).toBe(0);
    await settled(queue, await exportJob(order.id), worker);
    const verification = await settled(queue, (await queue.getJob(orderVerifyJobId(order.id)))!, worker);
    expect(verification.returnvalue).toEqual({ verified: true, erp_sales_order_number: "SO-100001" });
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 1, verified: 1 });
    expect(await pendingVerify()).toBe(0);
    expect(erp.requests.filter((r) => r.url.includes("/salesOrderLines"))).toHaveLength(1);
  });

  it("leaves an order whose ERP copy differs unverified, with a sync error naming both values", async () => {
    const order = await createOrder();
    // What an earlier run left in the ERP: one quantity and so the total differ from the order.
    const sent = expectedSalesOrder();
    erp.seed({ ...sent, salesOrderLines: sent.salesOrderLines.map((line) => (line.lineObjectNumber === "WIDGET-1" ? { ...line, quantity: 3 } : line)) });
    await settled(queue, await exportJob(order.id), worker);
    const verification = await settled(queue, (await queue.getJob(orderVerifyJobId(order.id)))!, worker);
    expect(verification.returnvalue).toMatchObject({ verified: false });
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 1, verified: 0 });
    expect(await pendingVerify()).toBe(1);
    const errors = await prisma.syncError.findMany({ where: { source: "erp_verify" } });
    expect(errors.map((row) => row.message)).toEqual([
      `Order ${ORDER_NUMBER} does not match ERP sales order SO-100001: ERP total 66.04 does not match the order total 46.05; line 1: ERP has WIDGET-1 x 3 at 19.99, the order WIDGET-1 x 2 at 19.99`,
    ]);
    // The sweep leaves a recorded mismatch to an operator rather than reading it again and again.
    const sweep = await settled(queue, await queue.add("order-sweep", {}, { jobId: `sweep-after-mismatch-${Date.now()}` }), worker);
    expect(sweep.returnvalue).toMatchObject({ verifying: 0 });
  });

  it("reports a total the ERP computed differently once, however often the order is read back", async () => {
    const order = await createOrder();
    erp.reportedTotals.set(`${siteId}-${ORDER_NUMBER}`, 12.5);
    await settled(queue, await exportJob(order.id), worker);
    await settled(queue, (await queue.getJob(orderVerifyJobId(order.id)))!, worker);
    const again = await settled(queue, await queues.add(orderVerifyJob, { order_id: order.id }, { jobId: jobId(orderVerifyJobId(order.id), "again") }), worker);
    expect(again.returnvalue).toEqual({ verified: false, differences: ["ERP total 12.50 does not match the order total 46.05"] });
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 1, verified: 0 });
    expect((await prisma.syncError.findMany()).map((row) => [row.source, row.order_number, row.message])).toEqual([
      ["erp_verify", ORDER_NUMBER, `Order ${ORDER_NUMBER} does not match ERP sales order SO-100001: ERP total 12.50 does not match the order total 46.05`],
    ]);
  });

  it("sweeps exported orders nobody verified into verification jobs", async () => {
    const order = await createOrder(ORDER_NUMBER, { imported: true });
    await prisma.order.update({ where: { id: order.id }, data: { imported_at: new Date(Date.now() - 120_000) } });
    erp.seed({ ...expectedSalesOrder() });
    erp.salesOrders[0]!.number = "SO-000042";
    const sweep = await settled(queue, await queue.add("order-sweep", {}, { jobId: `sweep-verify-${Date.now()}` }), worker);
    expect(sweep.returnvalue).toMatchObject({ verifying: 1 });
    const verification = await settled(queue, (await queue.getJob(orderVerifyJobId(order.id)))!, worker);
    expect(verification.returnvalue).toEqual({ verified: true, erp_sales_order_number: "SO-000042" });
  });

  it("takes the number of a sales order the ERP already holds instead of creating a second one", async () => {
    const order = await createOrder();
    // An earlier run reached the ERP, then crashed before storing the number.
    const existing = erp.seed(expectedSalesOrder());

    const done = await settled(queue, await exportJob(order.id), worker);
    expect(done.returnvalue).toEqual({ erp_sales_order_number: existing.number });
    expect(exportCalls().map((r) => r.method)).toEqual(["GET"]);
    expect(erp.salesOrders).toHaveLength(1);
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 1, erp_sales_order_number: existing.number });
  });

  it("ends two racing runs for one order with one ERP sales order", async () => {
    const order = await createOrder();
    // Both lookups are answered before either POST is looked at, so both runs try to create.
    erp.delayMs = 300;
    const [a, b] = [await exportJob(order.id), await exportJob(order.id, { suffix: "rerun" })];
    const [doneA, doneB] = await Promise.all([settled(queue, a, worker), settled(queue, b, worker)]);

    expect([await doneA.getState(), await doneB.getState()]).toEqual(["completed", "completed"]);
    expect(erp.salesOrders).toHaveLength(1);
    expect(posts().map((r) => r.status).sort()).toEqual([201, 409]);
    expect(doneA.returnvalue).toEqual({ erp_sales_order_number: "SO-100001" });
    expect(doneB.returnvalue).toEqual({ erp_sales_order_number: "SO-100001" });
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 1, erp_sales_order_number: "SO-100001" });
    expect(await prisma.syncError.count()).toBe(0);
  });

  it("retries through an ERP outage and exports once the ERP is back", async () => {
    const order = await createOrder();
    erp.outage = "unavailable";
    const job = await exportJob(order.id, { attempts: 3, retryDelayMs: 1_000 });
    await until(async () => (await queue.getJob(job.id!))!.attemptsMade >= 1, () => `the first attempt; output:\n${worker.output()}`);

    const retrying = (await queue.getJob(job.id!))!;
    expect(await retrying.getState()).toBe("delayed");
    expect(retrying.failedReason).toBe("ERP answered HTTP 503: The service is temporarily unavailable. Please try again later.");
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 0, erp_sales_order_number: null });
    expect(await prisma.syncError.count()).toBe(0);

    erp.outage = null;
    const done = await settled(queue, job, worker);
    expect(await done.getState()).toBe("completed");
    expect(done.attemptsMade).toBe(2);
    expect(exportCalls().map((r) => `${r.method} ${r.status}`)).toEqual(["GET 503", "GET 200", "POST 201"]);
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 1, erp_sales_order_number: "SO-100001" });
    expect(await prisma.syncError.count()).toBe(0);
  });

  it("records one sync error when an outage outlasts the attempts", async () => {
    const order = await createOrder();
    erp.outage = "drop";
    const done = await settled(queue, await exportJob(order.id, { attempts: 2, retryDelayMs: 200 }), worker);

    expect(await done.getState()).toBe("failed");
    expect(done.attemptsMade).toBe(2);
    const reason = `ERP request failed: ECONNRESET, the connection was cut at ${new URL(erp.url).origin} (ERP_BASE_URL): check ERP_BASE_URL and that the ERP is up`;
    expect(done.failedReason).toBe(reason);
    expect(exportCalls().map((r) => r.method)).toEqual(["GET", "GET"]);
    expect(await prisma.syncError.findMany()).toMatchObject([
      { source: "erp_export", order_number: ORDER_NUMBER, site_id: siteId, message: reason },
    ]);
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 0 });
  });

  it("fails at once on a 422 and records the ERP's reason", async () => {
    const order = await createOrder();
    erp.rejections.set(`${siteId}-${ORDER_NUMBER}`, "Customer 27111 is blocked for sales.");
    const done = await settled(queue, await exportJob(order.id), worker);

    expect(await done.getState()).toBe("failed");
    expect(done.opts.attempts).toBe(8);
    expect(done.attemptsMade).toBe(1);
    const reason = "ERP answered HTTP 422: Customer 27111 is blocked for sales.";
    expect(done.failedReason).toBe(reason);
    expect(posts().map((r) => r.status)).toEqual([422]);
    expect(await prisma.syncError.findMany()).toMatchObject([{ source: "erp_export", order_number: ORDER_NUMBER, site_id: siteId, message: reason }]);
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 0, erp_sales_order_number: null });
  });

  it("sweeps pending orders older than a minute into export jobs, without duplicates on a second sweep", async () => {
    const oldest = await createOrder("S-1", { ageMs: 3 * 60_000 });
    const older = await createOrder("S-2", { ageMs: 2 * 60_000 });
    await createOrder("S-3-young");
    await createOrder("S-4-done", { ageMs: 5 * 60_000, imported: true });
    const expectedIds = [orderExportJobId(oldest.id), orderExportJobId(older.id)].sort();
    // Keep the exports pending (retrying) while the second sweep runs.
    erp.outage = "unavailable";

    const first = await settled(queue, await queues.add(orderSweepJob, {}), worker);
    expect(first.returnvalue).toEqual({ pending: 2, retried: 0, verifying: 0 });
    expect(await exportJobIds()).toEqual(expectedIds);
    await until(
      async () => (await Promise.all(expectedIds.map((id) => queue.getJobState(id)))).every((state) => state === "delayed"),
      () => "both exports to wait for a retry",
    );
    const second = await settled(queue, await queues.add(orderSweepJob, {}), worker);
    expect(second.returnvalue).toEqual({ pending: 2, retried: 0, verifying: 0 });
    expect(await exportJobIds()).toEqual(expectedIds);

    erp.outage = null;
    for (const id of expectedIds) await (await queue.getJob(id))!.promote();
    for (const id of expectedIds) expect(await (await settled(queue, (await queue.getJob(id))!, worker)).getState()).toBe("completed");
    expect(posts().map((r) => (JSON.parse(r.body) as SalesOrderInput).externalDocumentNumber).sort()).toEqual([`${siteId}-S-1`, `${siteId}-S-2`]);
    const orders = await prisma.order.findMany({ orderBy: { number: "asc" }, select: { number: true, imported: true } });
    expect(orders).toEqual([
      { number: "S-1", imported: 1 },
      { number: "S-2", imported: 1 },
      { number: "S-3-young", imported: 0 },
      { number: "S-4-done", imported: 1 },
    ]);
  });
  it("gives exports that ran out of attempts in an outage another round, but not permanent failures", async () => {
    const outaged = await createOrder("R-1", { ageMs: 2 * 60_000 });
    const refused = await createOrder("R-2", { ageMs: 2 * 60_000 });
    erp.outage = "unavailable";
    const exhausted = await queues.add(orderExportJob, { order_id: outaged.id }, { jobId: orderExportJobId(outaged.id), attempts: 1 });
    expect(await (await settled(queue, exhausted, worker)).getState()).toBe("failed");
    erp.outage = null;
    erp.rejections.set(`${siteId}-R-2`, "Customer 27111 is blocked for sales.");
    const permanent = await queues.add(orderExportJob, { order_id: refused.id }, { jobId: orderExportJobId(refused.id), attempts: 5 });
    expect(await (await settled(queue, permanent, worker)).getState()).toBe("failed");

    const sweep = await settled(queue, await queues.add(orderSweepJob, {}), worker);
    expect(sweep.returnvalue).toEqual({ pending: 2, retried: 1, verifying: 0 });
    await until(
      async () => (await prisma.order.findUniqueOrThrow({ where: { id: outaged.id } })).imported === 1,
      () => "the retried export to finish",
    );
    expect(await queue.getJobState(orderExportJobId(refused.id))).toBe("failed");
    expect((await prisma.order.findUniqueOrThrow({ where: { id: refused.id } })).imported).toBe(0);
  });
});

describe("order sweep after workers died under an export", () => {
  let worker: InProcessWorker | undefined;

  afterEach(async () => {
    if (worker) await worker.stop();
  });

  it("gives an export that stalled twice another round, and it exports the order once", async () => {
    const order = await createOrder("K-1", { ageMs: 2 * 60_000 });
    await queues.add(orderExportJob, { order_id: order.id }, { jobId: orderExportJobId(order.id) });
    await stallTwice(queue, orderExportJobId(order.id));
    expect(await queue.getJob(orderExportJobId(order.id))).toMatchObject({ failedReason: "job stalled more than allowable limit" });

    // The worker's own order-sweep schedule runs once at start and may be the one that retries it.
    worker = await startWorker({ ERP_BASE_URL: erp.url, ERP_TOKEN: TOKEN });
    await worker.waitFor(logged("workers started"));
    await settled(queue, await queues.add(orderSweepJob, {}), worker);
    await until(async () => (await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).imported === 1, () => "the retried export to finish");
    expect(posts().map((r) => (JSON.parse(r.body) as SalesOrderInput).externalDocumentNumber)).toEqual([`${siteId}-K-1`]);
  });
});

describe("order export with OAuth client credentials", () => {
  // Tokens are held per Redis connection: each test's worker opens its own and starts without one.
  let worker: InProcessWorker;
  const queueIdle = () => until(async () => (await queue.getActiveCount()) + (await queue.getWaitingCount()) === 0, () => "this test's jobs to end");
  const apiCalls = () => erp.requests.filter((request) => request.url !== new URL(erp.tokenUrl).pathname);

  beforeEach(async () => {
    // The token is shared through Redis: a test starts without one.
    for (const key of await redis.keys(`${process.env.QUEUE_PREFIX}:erp-token:*`)) await redis.del(key);
    worker = await startWorker({
      ERP_BASE_URL: erp.url,
      ERP_TOKEN_URL: erp.tokenUrl,
      ERP_CLIENT_ID: erp.clientId,
      ERP_CLIENT_SECRET: erp.clientSecret,
      ERP_SCOPE: erp.scope,
    });
    await worker.waitFor(logged("workers started"));
  });

  afterEach(async () => {
    await queueIdle();
    await worker.stop();
  });

  it("renews an expiring token before it lapses, mid-export, with no failed job", async () => {
    erp.tokenLifetimeSeconds = 3;
    erp.delayMs = 250;
    const orders = [await createOrder("T-1"), await createOrder("T-2"), await createOrder("T-3"), await createOrder("T-4")];
    const jobs = [];
    for (const order of orders) {
      // One at a time, so the exports span more than one token's life.
      const done = await settled(queue, await exportJob(order.id, { attempts: 1 }), worker, 30_000);
      jobs.push(done);
      await queueIdle();
    }
    expect(await Promise.all(jobs.map((job) => job.getState()))).toEqual(["completed", "completed", "completed", "completed"]);
    expect(erp.salesOrders).toHaveLength(4);
    expect(erp.tokenRequests().length).toBeGreaterThanOrEqual(2);
    const form = new URLSearchParams(erp.tokenRequests()[0]!.body);
    expect(Object.fromEntries(form)).toEqual({ grant_type: "client_credentials", client_id: erp.clientId, client_secret: erp.clientSecret, scope: erp.scope });
    // Every ERP call carried a token the ERP issued; the secret never reached the log.
    expect(apiCalls().every((request) => /^Bearer erp-at-/.test(request.headers.authorization ?? ""))).toBe(true);
    expect(worker.output()).not.toContain(erp.clientSecret);
  });

  it("answers a 401 with one renewal and the call goes through", async () => {
    const first = await createOrder("R-1");
    expect(await (await settled(queue, await exportJob(first.id), worker)).getState()).toBe("completed");
    await queueIdle();
    expect(erp.tokenRequests()).toHaveLength(1);

    erp.revokeIssuedTokens();
    const second = await createOrder("R-2");
    const done = await settled(queue, await exportJob(second.id, { attempts: 1 }), worker);
    expect(await done.getState()).toBe("completed");
    expect(erp.tokenRequests()).toHaveLength(2);
    expect(apiCalls().filter((request) => request.status === 401)).toHaveLength(1);
    // The renewed token went to Redis (encrypted) for the other processes.
    const [key] = await redis.keys(`${process.env.QUEUE_PREFIX}:erp-token:*`);
    const stored = await redis.get(key!);
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain("erp-at-");
  });

  it("waits out a 429 with Retry-After by delaying the job, without using its one attempt", async () => {
    erp.rateLimited = 1;
    erp.retryAfterSeconds = 2;
    const order = await createOrder("L-1");
    const done = await settled(queue, await exportJob(order.id, { attempts: 1 }), worker, 30_000);
    expect(await done.getState()).toBe("completed");
    expect(done.attemptsMade).toBe(1);
    expect(apiCalls().filter((request) => request.status === 429)).toHaveLength(1);
    expect(logLines(worker, "job delayed"), worker.output()).toMatchObject([{ delay_ms: 2000 }]);
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 1, failed_at: null });
  });

  it("keeps orders waiting, not failed, while the ERP's token endpoint refuses the client credentials (invalid_client): one operator alert, exported once they are right", async () => {
    await worker.stop();
    const oauth = { ERP_BASE_URL: erp.url, ERP_TOKEN_URL: erp.tokenUrl, ERP_CLIENT_ID: erp.clientId, ERP_SCOPE: erp.scope };
    worker = await startWorker({ ...oauth, ERP_CLIENT_SECRET: "a-mistyped-secret" });
    await worker.waitFor(logged("workers started"));
    const alertId = operatorAlertJobId("erp-client-credentials");
    await (await queues.get("notifications").getJob(alertId))?.remove();
    await prisma.operatorAlert.deleteMany({ where: { alert_key: "erp-client-credentials" } });
    const orders = [await createOrder("C-1"), await createOrder("C-2")];

    for (const order of orders) expect(await (await settled(queue, await exportJob(order.id, { attempts: 1 }), worker)).getState()).toBe("failed");
    for (const order of orders) {
      expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 0, failed_at: null });
      expect(await orderDetailView({ prisma, queues }, order.id)).toMatchObject({ state: "pending", state_reason: expect.stringContaining("Waiting for the ERP to accept the platform's client credentials") });
    }
    const alert = async () => (await queues.get("notifications").getJob(alertId))?.data ?? (await prisma.operatorAlert.findUnique({ where: { alert_key: "erp-client-credentials" } }));
    await until(async () => Boolean(await alert()), () => "the operator alert");
    expect(await alert()).toMatchObject({ subject: "Order exports wait: the ERP refused the platform's client credentials", text: expect.stringContaining("ERP_CLIENT_SECRET") });

    await worker.stop();
    // Old enough for the sweep, which leaves the youngest to the intake.
    await prisma.order.updateMany({ where: { id: { in: orders.map((order) => order.id) } }, data: { created_at: new Date(Date.now() - 2 * 60_000) } });
    worker = await startWorker({ ...oauth, ERP_CLIENT_SECRET: erp.clientSecret });
    await worker.waitFor(logged("workers started"));
    await settled(queue, await queues.add(orderSweepJob, {}), worker);
    await until(async () => (await prisma.order.count({ where: { id: { in: orders.map((order) => order.id) }, imported: 1 } })) === 2, () => "both exports to go through");
  });

  it("shows an order held back by the ERP's Retry-After as held back, why, and when the next attempt is, not as merely queued", async () => {
    erp.rateLimited = 1;
    erp.retryAfterSeconds = 120;
    const order = await createOrder("L-3");
    const job = await exportJob(order.id, { attempts: 1 });
    const view = () => orderDetailView({ prisma, queues }, order.id);
    await until(async () => (await job.getState()) === "delayed", () => "the export to be put back for the ERP's Retry-After");

    const held = await view();
    expect(held).toMatchObject({
      state: "pending",
      state_reason: "Held back by the ERP until the next attempt: ERP answered HTTP 429: Too many requests reached. Please retry later.",
      job_state: "delayed",
    });
    const next = Date.parse(`${held!.next_attempt_at!.replace(" ", "T")}Z`);
    expect(next).toBeGreaterThan(Date.now() + 100_000);
    expect(next).toBeLessThanOrEqual(Date.now() + 120_000);
    // Not left for a later test's worker to export.
    await job.remove();
  });

  it("stops waiting for an ERP that answers 429 for ever: past the deferral bound each 429 uses up an attempt, and the job fails with it", async () => {
    erp.rateLimited = Number.POSITIVE_INFINITY;
    erp.retryAfterSeconds = 0;
    const order = await createOrder("L-2");
    const done = await settled(queue, await exportJob(order.id, { attempts: 2, retryDelayMs: 50 }), worker, 60_000);
    expect(await done.getState()).toBe("failed");
    expect(done.failedReason).toBe("ERP answered HTTP 429: Too many requests reached. Please retry later.");
    expect(done.attemptsMade).toBe(2);
    // Put back MAX_JOB_DEFERRALS times, then two attempts that each took the 429 as their failure.
    expect(logLines(worker, "job delayed"), worker.output()).toHaveLength(MAX_JOB_DEFERRALS);
    expect(apiCalls().filter((request) => request.status === 429)).toHaveLength(MAX_JOB_DEFERRALS + 2);
    expect(await prisma.syncError.findMany({ where: { order_number: "L-2" }, select: { message: true } })).toEqual([{ message: expect.stringContaining("ERP answered HTTP 429") }]);
   }, 90_000);
});

describe("order export with the ERP unconfigured", () => {
  let worker: InProcessWorker;

  afterEach(() => worker.stop());

  it("fails the export at once with a clear reason, and exports the order once the ERP is configured, without an operator", async () => {
    worker = await startWorker({ ERP_BASE_URL: "", ERP_TOKEN: "" });
    await worker.waitFor(logged("workers started"));
    const order = await createOrder(ORDER_NUMBER, { ageMs: 2 * 60_000 });

    const done = await settled(queue, await exportJob(order.id), worker);
    expect(await done.getState()).toBe("failed");
    expect(done.attemptsMade).toBe(1);
    expect(done.failedReason).toBe("ERP is not configured: ERP_BASE_URL is unset");
    expect(await prisma.syncError.findMany()).toMatchObject([{ source: "erp_export", order_number: ORDER_NUMBER, message: done.failedReason }]);
    const skipped = await settled(queue, await queues.add(orderSweepJob, {}), worker);
    expect(skipped.returnvalue).toEqual({ skipped: "erp_not_configured" });
    expect(erp.requests).toHaveLength(0);
    await worker.stop();

    // The operator sets ERP_BASE_URL and restarts the worker; a sweep (its schedule's first run at start, or this one) does the rest.
    worker = await startWorker({ ERP_BASE_URL: erp.url, ERP_TOKEN: TOKEN });
    await worker.waitFor(logged("workers started"));
    await settled(queue, await queues.add(orderSweepJob, {}), worker);
    await until(async () => (await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).imported === 1, () => "the export to run");
    expect(posts()).toHaveLength(1);
  });
});

describe("order sweep scheduler", () => {
  it("registers one five-minute scheduler however often it is called", async () => {
    await ensureSchedules(queues, ["orders"], testConfig());
    await ensureSchedules(queues, ["orders"], testConfig());
    // The orders queue has other schedulers too (the daily order-volume test); this one is there once.
    const sweeps = (await queue.getJobSchedulers()).filter((scheduler) => scheduler.name === "order-sweep");
    expect(sweeps).toMatchObject([{ key: "order-sweep", name: "order-sweep", every: 300_000 }]);
    const scheduled = await queue.getJobs(["waiting", "delayed", "prioritized"]);
    expect(scheduled.map((job) => job.name).filter((name) => name === "order-sweep")).toEqual(["order-sweep"]);
    for (const scheduler of await queue.getJobSchedulers()) await queue.removeJobScheduler(scheduler.key);
  });
});

describe("the export and read-back use cases, in process", () => {
  /** What the worker's handlers hand them: the connections they use and the job's log. */
  function deps(env: Record<string, string>) {
    const config = testConfig({ HTTP_TIMEOUT_MS: "2000", ...env });
    return { prisma, redis, queues, config, log: createLogger("order-export-test", config) };
  }

  it("exports an order, queues its read-back, verifies it, and leaves it alone when asked again", async () => {
    const order = await createOrder();
    const erpDeps = deps({ ERP_BASE_URL: erp.url, ERP_TOKEN: TOKEN });

    expect(await exportOrder(erpDeps, order.id, () => true)).toEqual({ erp_sales_order_number: "SO-100001" });
    expect(JSON.parse(posts()[0]!.body)).toEqual(expectedSalesOrder());
    expect((await queue.getJob(orderVerifyJobId(order.id)))?.data).toEqual({ order_id: order.id, order_number: ORDER_NUMBER, site_id: siteId });

    expect(await verifyOrder(erpDeps, order.id)).toEqual({ verified: true, erp_sales_order_number: "SO-100001" });
    expect(await prisma.order.findUniqueOrThrow({ where: { id: order.id } })).toMatchObject({ imported: 1, verified: 1, erp_sales_order_number: "SO-100001" });
    expect(await exportOrder(erpDeps, order.id, () => true)).toEqual({ skipped: "already_exported", erp_sales_order_number: "SO-100001" });
    expect(posts()).toHaveLength(1);
  });

  it("records a failure as a sync error only when it ends the job", async () => {
    const order = await createOrder();
    const unconfigured = deps({ ERP_BASE_URL: "", ERP_TOKEN: "" });

    await expect(exportOrder(unconfigured, order.id, () => false)).rejects.toThrow("ERP is not configured: ERP_BASE_URL is unset");
    expect(await prisma.syncError.count()).toBe(0);
    await expect(exportOrder(unconfigured, order.id, () => true)).rejects.toThrow("ERP is not configured: ERP_BASE_URL is unset");
    expect(await prisma.syncError.findMany()).toMatchObject([{ source: "erp_export", order_number: ORDER_NUMBER, message: "ERP is not configured: ERP_BASE_URL is unset" }]);
    expect(erp.requests).toHaveLength(0);
  });
});

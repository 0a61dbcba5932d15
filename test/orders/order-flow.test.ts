import { createUser } from "@mw/domains/identity";
import type { Job } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeErp } from "../fakes/erp.ts";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";
import { until } from "../support/wait.ts";

// The whole path a user sees: an ERP pushes an order through the API, an
// operator sees it pending, a worker exports it to the ERP (through an outage),
// the viewer shows the ERP's sales order number, and the order counts as
// pending_verify until it is read back from the ERP.
const TOKEN = "flow-erp-token";
let api: TestApi;
let erp: FakeErp;
let worker: InProcessWorker | undefined;
let admin: { authorization: string };

beforeAll(async () => {
  api = await startApi();
  // Orders other test files left unexported or unverified in this database would be exported or read back by this
  // test's worker (its order sweep) to this test's ERP and counted in its figures.
  await api.ctx.prisma.order.updateMany({ where: { OR: [{ imported: 0 }, { verified: 0 }] }, data: { imported: 1, verified: 1 } });
  erp = await new FakeErp(TOKEN).start();
  await seedItems(api.ctx.prisma, ["FLOW-1"]);
  const user = await createUser(api.ctx, { login: uniqueLogin("flow"), capabilities: ["manage_middleware"] });
  admin = { authorization: basicAuth(user.login, user.application_password) };
});
afterAll(async () => {
  await worker?.stop();
  await erp.stop();
  await api.close();
});

async function viewOrder(number: string) {
  const res = await fetch(`${api.url}/middleware/v1/orders?search=${number}`, { headers: admin });
  return ((await res.json()) as { orders: { id: number; number: string; imported: number; verified: number; erp_sales_order_number: string | null }[] }).orders[0];
}

async function pendingVerify(): Promise<number> {
  const res = await fetch(`${api.url}/middleware/v1/stats`, { headers: admin });
  return ((await res.json()) as { orders: { pending_verify: number } }).orders.pending_verify;
}

/** The job once it waits for its retry (its failure is logged just before BullMQ moves it there). */
async function awaitingRetry(id: string): Promise<Job> {
  const queue = api.ctx.queues.get("orders");
  let state = "";
  await until(async () => (state = await queue.getJobState(id)) === "delayed", () => `job ${id} to wait for its retry (state ${state})`, 20_000);
  return (await queue.getJob(id))!;
}

describe("order intake to ERP export", () => {
  it("shows a new order pending, keeps it pending through an ERP outage, shows it exported, then verified once the ERP shows it", async () => {
    const { key } = await createSiteWithKey(api.ctx.prisma);
    const number = `FLOW-${process.pid % 100000}`;
    const pendingBefore = await pendingVerify();
    erp.outage = "unavailable";
    erp.salesOrderLinesUnavailable = true;
    const res = await fetch(`${api.url}/middleware/v1/external/orders`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(orderBody(number, { line_items: [{ line_number: 1, sku: "FLOW-1", quantity: 3, unit_price: 7 }] })),
    });
    expect(res.status).toBe(201);
    expect(await viewOrder(number)).toMatchObject({ number, imported: 0, erp_sales_order_number: null });

    worker = await startInProcessWorker({ WORKER_QUEUES: "orders", ERP_BASE_URL: erp.url, ERP_TOKEN: TOKEN });
    await worker.waitFor(logged("job failed"));
    const order = await viewOrder(number);
    expect(order).toMatchObject({ imported: 0, erp_sales_order_number: null });
    const exportJob = await awaitingRetry(`order-export.${order!.id}`);
    erp.outage = null;
    await exportJob.promote();
    let exported: Awaited<ReturnType<typeof viewOrder>>;
    await until(async () => (exported = await viewOrder(number))?.imported === 1, () => `order ${number} to show as exported`, 20_000);
    // The worker's order sweep may export other test files' orders from this database to the same ERP: look at ours.
    const ours = erp.salesOrders.filter((order) => new RegExp(`-${number}$`).test(order.externalDocumentNumber));
    expect(ours).toHaveLength(1);
    expect(exported).toMatchObject({ imported: 1, verified: 0, erp_sales_order_number: ours[0]!.number });

    // The ERP took the order but cannot show its lines yet: exported, not verified.
    const verifyJob = await awaitingRetry(`order-verify.${order!.id}`);
    expect(await pendingVerify()).toBe(pendingBefore + 1);
    expect(await viewOrder(number)).toMatchObject({ imported: 1, verified: 0 });

    erp.salesOrderLinesUnavailable = false;
    await verifyJob.promote();
    await until(async () => (await viewOrder(number))?.verified === 1, () => `order ${number} to show as verified`, 20_000);
    expect(await pendingVerify()).toBe(pendingBefore);
    // A failed read-back is retried on its own: the order went to the ERP once.
    expect(erp.requests.filter((request) => request.method === "POST")).toHaveLength(1);
  });
});

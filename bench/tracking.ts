// `pnpm bench:tracking`: one tracking sync of a site with BENCH_ORDERS (default 1000) orders
// awaiting shipment, each with one ERP tracking number, run by ONE worker process against the
// fake storefronts and the fake ERP (in this process, on the same CPUs). Prints shipments posted
// per second and storefront requests per order beside the least the storefront's API allows.
// Needs MariaDB and Redis.
import { spawn } from "node:child_process";
import { createPrisma, createRedis, Queues, type PrismaClient } from "@mw/platform";
import { sealCredentials } from "@mw/domains/sites";
import type { Queue } from "bullmq";
import { seedOrders, seedSite } from "../scripts/support/seed.ts";
import { FakeErp } from "../test/fakes/erp.ts";
import type { FakeRequest } from "../test/fakes/fake-server.ts";
import { FakeStorefrontA } from "../test/fakes/storefront-a.ts";
import { FakeStorefrontB } from "../test/fakes/storefront-b.ts";
import { freshBenchEnvironment } from "./lib/database.ts";
import { ROOT, sampleRss } from "./lib/processes.ts";
import { reportResult } from "./lib/result.ts";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1000);
const ERP_TOKEN = "bench-erp-token";
/** e.g. BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the worker. */
const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];

// INFO, as in production: every posted tracking number is logged.
const { env, databaseUrl, key } = await freshBenchEnvironment("tracking", { WORKER_QUEUES: "tracking" });
const prisma = createPrisma(databaseUrl, { connectionLimit: 4 });
const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const queues = new Queues(redis, env.QUEUE_PREFIX);
const queue = queues.get("tracking");
const [erp, fakeA, fakeB] = await Promise.all([new FakeErp(ERP_TOKEN).start(), new FakeStorefrontA().start(), new FakeStorefrontB().start()]);

/** Our order rows (exported to the ERP) and one ERP shipment with a tracking number per storefront order. */
async function seedExportedOrders(db: PrismaClient, siteId: number, numbers: string[]): Promise<void> {
  await seedOrders(
    db,
    numbers.map((number) => ({
      site_id: siteId,
      number,
      dateadded: new Date(),
      payment_method: "pay_1",
      contact_id: 27111,
      shipping_agent_code: "UPS",
      shipping_agent_service: "GROUND_HOME_DELIVERY",
      payload_hash: "b".repeat(64),
      imported: 1,
      erp_sales_order_number: `SO-${siteId}-${number}`,
    })),
  );
  for (const [i, number] of numbers.entries()) {
    erp.addShipment({
      orderNumber: `SO-${siteId}-${number}`,
      shipmentDate: "2026-11-18",
      shippingAgentCode: "UPS",
      packageTrackingNo: `1Z999AA1${String(siteId).padStart(2, "0")}${String(i).padStart(8, "0")}`,
      salesShipmentLines: [{ sequence: 1, lineType: "Item", lineObjectNumber: "BENCH-SKU", quantity: 1 }],
    });
  }
}

async function siteA(): Promise<number> {
  const store = fakeA.addStore({ hash: "bench", accessToken: "bench-token", clientId: "bench-client", name: "Bench store" });
  const site = await seedSite(prisma, {
    name: "Bench BigCommerce",
    platform: "storefront_a",
    site_url: "https://bench.example",
    api_base_url: fakeA.baseUrl("bench"),
    api_credentials: sealCredentials({ client_id: store.clientId, access_token: store.accessToken }, key),
    tracking_sync: true,
    tracking_enabled: true,
  });
  const orders = Array.from({ length: ORDERS }, () => store.addOrder({ lines: [{ sku: "BENCH-SKU", quantity: 1 }] }));
  await seedExportedOrders(prisma, site.id, orders.map((order) => String(order.id)));
  return site.id;
}

async function siteB(): Promise<number> {
  fakeB.shop.shipmentTracking = true;
  const site = await seedSite(prisma, {
    name: "Bench WooCommerce",
    platform: "storefront_b",
    site_url: fakeB.url,
    api_credentials: sealCredentials({ client_id: fakeB.consumerKey, access_token: fakeB.consumerSecret }, key),
    tracking_sync: true,
    tracking_enabled: true,
  });
  const orders = Array.from({ length: ORDERS }, () => fakeB.shop.addOrder({ lines: [{ sku: "BENCH-SKU", quantity: 1 }] }));
  await seedExportedOrders(prisma, site.id, orders.map((order) => order.number));
  return site.id;
}

/** One tracking-sync job of the site, timed from the worker's own job timestamps. */
async function syncOnce(siteId: number, jobs: Queue): Promise<{ seconds: number; counts: Record<string, number> }> {
  const job = await jobs.add("tracking-sync", { site_id: siteId }, { jobId: `bench.${siteId}`, attempts: 1 });
  for (;;) {
    const state = await jobs.getJobState(job.id!);
    if (state === "completed" || state === "failed") break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const done = (await jobs.getJob(job.id!))!;
  if (done.failedReason) throw new Error(`the sync failed: ${done.failedReason}`);
  const run = await prisma.syncRun.findFirstOrThrow({ where: { site_id: siteId }, orderBy: { id: "desc" } });
  return { seconds: (done.finishedOn! - done.processedOn!) / 1000, counts: run.counts as Record<string, number> };
}

function kinds(requests: FakeRequest[]): string {
  const count = new Map<string, number>();
  for (const request of requests) {
    const path = request.path.replace(/^\/stores\/[^/]+|^\/wp-json/, "").replace(/\/\d+(?=\/|$)/g, "/{id}");
    count.set(`${request.method} ${path}`, (count.get(`${request.method} ${path}`) ?? 0) + 1);
  }
  return [...count].map(([kind, n]) => `${n} ${kind}`).join(", ");
}

const worker = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "packages/worker/src/main.ts"], {
  cwd: ROOT,
  env: { ...process.env, ...env, ERP_BASE_URL: erp.url, ERP_TOKEN, LOG_STDOUT: "true", LOG_LEVEL: "info" },
  stdio: ["ignore", "pipe", "inherit"],
});
// Sites created while the worker reconciles its tracking schedules would get a scheduler whose run would race the measured one.
await new Promise<void>((resolve, reject) => {
  let output = "";
  const watch = (chunk: Buffer) => {
    output += chunk.toString();
    if (!output.includes("tracking schedules reconciled")) return;
    worker.stdout!.off("data", watch);
    resolve();
  };
  worker.stdout!.on("data", watch);
  worker.once("exit", (code) => reject(new Error(`the worker exited with ${code} before it was ready`)));
});
worker.stdout!.resume();

const workerRss = sampleRss(worker);
try {
  const rows = [];
  // storefront_a minimum: statuses 9 and 3 listed 250 a page (v2 takes one status per call; a full last page costs a 204),
  // then per order one POST shipment and one PUT status 10 (BigCommerce has no batch for either). The run also lists
  // Shipped (2) once, for orders a stopped run left uncompleted: one request per run above the minimum.
  const a = await siteA();
  const resultA = await syncOnce(a, queue);
  const listPagesA = Math.floor(ORDERS / 250) + 1 + 1;
  rows.push(row("storefront_a (BigCommerce)", resultA, fakeA.requests, 2 + listPagesA / ORDERS));
  // storefront_b: the system status (extension check), order pages of 100, one tracking POST per number, completions 100 per batch.
  const b = await siteB();
  const resultB = await syncOnce(b, queue);
  const pagesB = Math.ceil(ORDERS / 100);
  rows.push(row("storefront_b (WooCommerce + Shipment Tracking)", resultB, fakeB.requests, 1 + (1 + pagesB + pagesB) / ORDERS));
  console.log(`\ntracking: one worker process, one sync of a site with ${ORDERS} orders awaiting shipment, one tracking number each, auto-complete on`);
  console.table(rows.map(({ breakdown: _breakdown, ...columns }) => columns));
  for (const entry of rows) console.log(`${entry.platform}: ${entry.breakdown}`);
  const rssMb = workerRss.stop() ?? null;
  console.log(`worker RSS: ${rssMb} MB (peak)`);
  for (const entry of rows) {
    reportResult({
      path: `tracking sync, ${entry.platform}, ${ORDERS} orders`,
      baseline: `the API's least: ${entry["API minimum/order"]} requests/order`,
      figure: `${entry["shipments/s"]} shipments/s, ${entry["requests/order"]} requests/order`,
      target: null,
      met: null,
      p99Ms: null,
      rssApiMb: null,
      rssWorkerMb: rssMb,
    });
  }
} finally {
  await new Promise((resolve) => {
    worker.once("exit", resolve);
    worker.kill("SIGTERM");
  });
  await queue.obliterate({ force: true });
  await Promise.all([erp.stop(), fakeA.stop(), fakeB.stop()]);
  await queues.close();
  await redis.quit();
  await prisma.$disconnect();
}

function row(platform: string, result: { seconds: number; counts: Record<string, number> }, requests: FakeRequest[], minimumPerOrder: number) {
  return {
    platform,
    orders: result.counts.orders,
    shipments: result.counts.shipments_created,
    completed: result.counts.completed,
    seconds: Number(result.seconds.toFixed(2)),
    "shipments/s": Math.round(result.counts.shipments_created! / result.seconds),
    "storefront requests": requests.length,
    "requests/order": Number((requests.length / ORDERS).toFixed(3)),
    "API minimum/order": Number(minimumPerOrder.toFixed(3)),
    breakdown: kinds(requests),
  };
}

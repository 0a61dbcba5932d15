import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createUser } from "@mw/domains/identity";
import { dailyIntakeBatches } from "@mw/domains/orders";
import { formatDay, type PrismaClient } from "@mw/platform";
import { reportsDailyJob } from "@mw/domains/reports";
import type { Queue } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";
import { settled, until } from "../support/wait.ts";

// Report jobs end to end: queued through the real API, built by the worker's
// runtime (in this process) into local storage, downloaded again.
// The known data sits on days no other test file uses.
const ROOT = "/middleware/v1";
const DAY = "2025-06-01";
const NEXT_DAY = "2025-06-02";

let api: TestApi;
let prisma: PrismaClient;
let reports: Queue;
let auth: string;
let dir: string;
let worker: InProcessWorker;
let alpha: number;
let beta: number;
let gamma: number;

async function call(method: string, route: string, body?: unknown) {
  const res = await fetch(`${api.url}${ROOT}${route}`, {
    method,
    headers: { authorization: auth, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

interface Queued {
  report_id: number;
  job_id: string;
  key: string;
}

/** Queues a report and waits for its job; answers the POST's body. */
async function runReport(body: Record<string, string>): Promise<Queued> {
  const answer = await call("POST", "/reports", body);
  expect(answer.status).toBe(202);
  const queued = JSON.parse(answer.text) as Queued;
  const job = (await reports.getJob(queued.job_id))!;
  const done = await settled(reports, job, worker);
  expect(done.failedReason).toBeUndefined();
  return queued;
}

async function csvOf(reportId: number): Promise<string> {
  const download = await call("GET", `/reports/${reportId}/download`);
  expect(download.status).toBe(200);
  expect(download.headers.get("content-type")).toBe("text/csv; charset=utf-8");
  return download.text;
}

let orderSeq = 0;
async function order(siteId: number, createdAt: string, paymentMethod: string, imported: 0 | 1, lines: { sku: string; quantity: number; price: string; discount?: string }[]) {
  orderSeq += 1;
  await prisma.order.create({
    data: {
      site_id: siteId,
      number: `RPT-${process.pid}-${orderSeq}`,
      dateadded: new Date(createdAt),
      created_at: new Date(createdAt),
      payment_method: paymentMethod,
      [paymentMethod]: "1",
      imported,
      contact_id: 27111,
      shipping_agent_code: "FEDEX",
      shipping_agent_service: "GROUND_HOME_DELIVERY",
      payload_hash: "r".repeat(64),
      lines: { create: lines.map((line, i) => ({ line: i + 1, sku: line.sku, quantity: line.quantity, price: line.price, discount_amount: line.discount ?? "0" })) },
    },
  });
}

async function dispute(receivedAt: string, outcome: string | null, source = "acquirer") {
  await prisma.webhookEvent.create({
    data: { source, payload: "{}", payload_hash: "d".repeat(64), received_at: new Date(receivedAt), processed_at: outcome ? new Date(receivedAt) : null, outcome },
  });
}

async function syncRun(siteId: number, kind: string, startedAt: string, status: string, counts: Record<string, number>) {
  await prisma.syncRun.create({ data: { site_id: siteId, kind, status, counts, started_at: new Date(startedAt), finished_at: new Date(startedAt) } });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "mw-reports-"));
  api = await startApi({ STORAGE_DIR: dir });
  prisma = api.ctx.prisma;
  reports = api.ctx.queues.get("reports");
  await reports.obliterate({ force: true });
  await prisma.report.deleteMany();
  const admin = await createUser({ prisma }, { login: uniqueLogin("reports"), capabilities: ["manage_middleware"] });
  auth = basicAuth(admin.login, admin.application_password);

  // The inventory summary lists every site with inventory sync on: those of earlier test files in this database are not ours.
  await prisma.site.updateMany({ data: { inventory_sync: false } });
  const site = (name: string, inventory_sync: boolean) => prisma.site.create({ data: { name, platform: "storefront_a", site_url: "https://r.example", inventory_sync } });
  alpha = (await site("Alpha shop", true)).id;
  beta = (await site("Beta, the \"best\" shop", false)).id;
  // A name that a spreadsheet would run as a formula (CSV injection).
  gamma = (await site("=HYPERLINK(\"http://x.example\",\"Gamma\")", true)).id;

  await order(alpha, `${DAY}T08:00:00Z`, "pay_1", 1, [
    { sku: "WIDGET", quantity: 2, price: "10.00", discount: "1.00" },
    { sku: "SHIPPING", quantity: 1, price: "5.00" },
  ]);
  await order(alpha, `${DAY}T23:59:59Z`, "pay_1", 0, [{ sku: "GADGET", quantity: 1, price: "7.50" }]);
  await order(alpha, `${DAY}T12:00:00Z`, "pay_3", 0, [
    { sku: "BOLT", quantity: 3, price: "1.99" },
    { sku: "SALES TAX", quantity: 1, price: "0.50" },
    { sku: "COUPON", quantity: 1, price: "2.00" },
  ]);
  await order(beta, `${DAY}T00:00:00Z`, "pay_1", 0, [{ sku: "CRATE", quantity: 1, price: "100.00" }]);
  await order(beta, `${NEXT_DAY}T00:00:00Z`, "pay_6", 1, [{ sku: "CRATE", quantity: 2, price: "100.00" }]);
  await order(beta, "2025-05-31T23:59:59Z", "pay_1", 1, [{ sku: "CRATE", quantity: 9, price: "100.00" }]);

  for (const outcome of ["linked", "linked", "no_match", null, "failed", "legacy_outcome"]) await dispute(`${DAY}T10:00:00Z`, outcome);
  await dispute(`${DAY}T10:00:00Z`, null, "products");
  await dispute(`${NEXT_DAY}T10:00:00Z`, "linked");

  await syncRun(alpha, "inventory", `${DAY}T01:00:00Z`, "completed", { items: 10, pushed: 8, forced_zero: 1, not_on_storefront: 1, errors: 0 });
  await syncRun(alpha, "inventory", `${DAY}T13:30:00Z`, "failed", { items: 4, pushed: 2, forced_zero: 0, not_on_storefront: 0, errors: 2 });
  await syncRun(alpha, "tracking", `${DAY}T02:00:00Z`, "completed", { created: 5 });
  await syncRun(alpha, "inventory", `${NEXT_DAY}T01:00:00Z`, "completed", { items: 99, pushed: 99, forced_zero: 0, not_on_storefront: 0, errors: 0 });
  await syncRun(beta, "inventory", `${DAY}T05:00:00Z`, "completed", { items: 3, pushed: 3, forced_zero: 0, not_on_storefront: 0, errors: 0 });
  await prisma.itemHistory.createMany({
    data: [
      { site_id: alpha, sku: "WIDGET", erp_stock: 5, pushed_stock: 5, synced_at: new Date(`${DAY}T01:00:00Z`) },
      { site_id: alpha, sku: "GADGET", erp_stock: 0, pushed_stock: 0, synced_at: new Date(`${DAY}T01:00:00Z`) },
      { site_id: alpha, sku: "WIDGET", erp_stock: 4, pushed_stock: 4, synced_at: new Date(`${DAY}T13:30:00Z`) },
      { site_id: beta, sku: "CRATE", erp_stock: 1, pushed_stock: 1, synced_at: new Date(`${NEXT_DAY}T05:00:00Z`) },
    ],
  });
});

afterAll(async () => {
  await worker?.stop();
  await reports.obliterate({ force: true });
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

describe("POST /reports before any worker runs", () => {
  it("refuses a bad request naming the field", async () => {
    const cases: [Record<string, string>, string][] = [
      [{ type: "order-intake-daily" }, "from"],
      [{ type: "order-intake-daily", from: DAY }, "to"],
      [{ type: "order-intake-daily", date: DAY, from: DAY, to: DAY }, "date"],
      [{ type: "order-intake-daily", from: NEXT_DAY, to: DAY }, "to"],
      [{ type: "order-intake-daily", from: "2024-01-01", to: "2025-06-01" }, "to"],
      [{ type: "order-intake-daily", date: "2025-02-29" }, "date"],
      [{ type: "weekly-nonsense", date: DAY }, "type"],
    ];
    for (const [body, field] of cases) {
      const answer = await call("POST", "/reports", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.text).toContain(field);
    }
  });

  it("queues a job carrying the report key, and the download waits for it (409), unknown is 404", async () => {
    const answer = await call("POST", "/reports", { type: "dispute-outcomes", date: NEXT_DAY });
    expect(answer.status).toBe(202);
    const queued = JSON.parse(answer.text) as Queued & { message: string };
    expect(queued).toMatchObject({ key: `dispute-outcomes:${NEXT_DAY}`, message: "Report queued." });
    const job = (await reports.getJob(queued.job_id))!;
    expect(job.name).toBe("dispute-outcomes");
    expect(job.data).toEqual({ report_id: queued.report_id, description: `dispute-outcomes:${NEXT_DAY}` });

    const again = JSON.parse((await call("POST", "/reports", { type: "dispute-outcomes", date: NEXT_DAY })).text) as Queued & { message: string };
    expect(again).toMatchObject({ report_id: queued.report_id, job_id: queued.job_id, message: "Report already queued." });

    const early = await call("GET", `/reports/${queued.report_id}/download`);
    expect(early.status).toBe(409);
    expect(JSON.parse(early.text)).toMatchObject({ code: "report_not_ready", data: { status: 409, report_status: "queued" } });
    expect((await call("GET", "/reports/999999/download")).status).toBe(404);

    worker = await startInProcessWorker({ WORKER_QUEUES: "reports", STORAGE_DIR: dir });
    await worker.waitFor(logged("workers started"));
    const done = await settled(reports, job, worker);
    expect(done.progress).toEqual({ done: 3, total: 3, percent: 100, note: "done" });
    expect(await csvOf(queued.report_id)).toBe(`outcome,description,disputes\n${expectedOutcomes({ linked: 1 })}`);
  });
});

function expectedOutcomes(counts: Record<string, number>, extra = ""): string {
  const lines = [
    ["linked", "One gateway transaction had the auth code; linked"],
    ["linked_card", "Several had the auth code; the card digits left one; linked"],
    ["linked_fallback", "Several matched the card digits; alert sent, first one linked"],
    ["no_gateway_result", "No gateway transaction had the auth code"],
    ["no_match", "No transaction with the auth code had the card digits"],
    ["no_account", "No gateway account for the merchant id"],
    ["invalid_dispute", "The dispute lacked what matching needs"],
    ["failed", "Processing failed"],
    ["pending", "Received, not processed yet"],
  ].map(([outcome, description]) => `${outcome},${description!.includes(",") ? `"${description}"` : description},${counts[outcome!] ?? 0}`);
  return `${lines.join("\n")}\n${extra}`;
}

describe("report CSVs on known data", () => {
  it("order intake by day, site and payment method", async () => {
    const { report_id } = await runReport({ type: "order-intake-daily", date: DAY });
    expect(await csvOf(report_id)).toBe(
      [
        "date,site_id,site_name,payment_method,orders,exported,pending,merchandise_total",
        `${DAY},${alpha},Alpha shop,pay_1,2,1,1,26.50`,
        `${DAY},${alpha},Alpha shop,pay_3,1,0,1,5.97`,
        `${DAY},${beta},"Beta, the ""best"" shop",pay_1,1,0,1,100.00`,
        "",
      ].join("\n"),
    );
    const range = await runReport({ type: "order-intake-daily", from: DAY, to: NEXT_DAY });
    expect(range.key).toBe(`order-intake-daily:${DAY}..${NEXT_DAY}`);
    const csv = await csvOf(range.report_id);
    expect(csv.split("\n").slice(1, -1)).toEqual([
      `${DAY},${alpha},Alpha shop,pay_1,2,1,1,26.50`,
      `${DAY},${alpha},Alpha shop,pay_3,1,0,1,5.97`,
      `${DAY},${beta},"Beta, the ""best"" shop",pay_1,1,0,1,100.00`,
      `${NEXT_DAY},${beta},"Beta, the ""best"" shop",pay_6,1,1,0,200.00`,
    ]);
  });

  it("order intake is read a week at a time, in day order, so a year's report never holds all its rows", async () => {
    const batches = [];
    for await (const batch of dailyIntakeBatches({ prisma }, { start: new Date("2025-05-25T00:00:00Z"), end: new Date("2025-06-03T00:00:00Z") })) batches.push(batch);
    const ours = batches.map((batch) => batch.filter((row) => [alpha, beta].includes(row.site_id)).map((row) => `${row.day} ${row.site_id} ${row.payment_method} ${row.orders}`));
    expect(ours).toEqual([
      [`2025-05-31 ${beta} pay_1 1`],
      [`${DAY} ${alpha} pay_1 2`, `${DAY} ${alpha} pay_3 1`, `${DAY} ${beta} pay_1 1`, `${NEXT_DAY} ${beta} pay_6 1`],
    ]);
  });

  it("order intake across a week's batch boundary: the last instant of one batch and the first of the next, names and totals as stored", async () => {
    // 2025-06-01 starts the period, so its batches are 06-01..06-07 and 06-08..06-09.
    await order(gamma, "2025-06-07T23:59:59Z", "pay_2", 1, [
      { sku: "WIDGET", quantity: 3, price: "0.10" },
      { sku: "SHIPPING", quantity: 1, price: "4.00" },
    ]);
    await order(gamma, "2025-06-08T00:00:00Z", "pay_2", 0, []);
    await order(beta, "2025-06-08T00:00:00Z", "pay_2", 1, [{ sku: "CRATE", quantity: 1, price: "99999999.99", discount: "0.99" }]);
    const batches = [];
    for await (const batch of dailyIntakeBatches({ prisma }, { start: new Date(`${DAY}T00:00:00Z`), end: new Date("2025-06-10T00:00:00Z") })) batches.push(batch);
    expect(batches.map((batch) => batch.filter((row) => row.site_id === gamma).map((row) => row.day))).toEqual([["2025-06-07"], ["2025-06-08"]]);
    const { report_id } = await runReport({ type: "order-intake-daily", from: DAY, to: "2025-06-09" });
    expect((await csvOf(report_id)).split("\n").slice(1, -1)).toEqual([
      `${DAY},${alpha},Alpha shop,pay_1,2,1,1,26.50`,
      `${DAY},${alpha},Alpha shop,pay_3,1,0,1,5.97`,
      `${DAY},${beta},"Beta, the ""best"" shop",pay_1,1,0,1,100.00`,
      `${NEXT_DAY},${beta},"Beta, the ""best"" shop",pay_6,1,1,0,200.00`,
      `2025-06-07,${gamma},"'=HYPERLINK(""http://x.example"",""Gamma"")",pay_2,1,1,0,0.30`,
      `2025-06-08,${gamma},"'=HYPERLINK(""http://x.example"",""Gamma"")",pay_2,1,0,1,0.00`,
      `2025-06-08,${beta},"Beta, the ""best"" shop",pay_2,1,1,0,99999999.00`,
    ]);
    // The listing test below counts the intake reports of the first test only.
    await prisma.report.delete({ where: { id: report_id } });
  });

  it("dispute outcomes by match result, every known outcome listed", async () => {
    const { report_id } = await runReport({ type: "dispute-outcomes", date: DAY });
    expect(await csvOf(report_id)).toBe(
      `outcome,description,disputes\n${expectedOutcomes({ linked: 2, no_match: 1, failed: 1, pending: 1 }, "legacy_outcome,,1\n")}`,
    );
  });

  it("inventory sync summary per site", async () => {
    const { report_id } = await runReport({ type: "inventory-sync-summary", date: DAY });
    expect(await csvOf(report_id)).toBe(
      [
        "site_id,site_name,runs,completed,failed,items,pushed,forced_zero,not_on_storefront,errors,skus_recorded,last_run_at",
        `${gamma},"'=HYPERLINK(""http://x.example"",""Gamma"")",0,0,0,0,0,0,0,0,0,`,
        `${alpha},Alpha shop,2,1,1,14,10,1,1,2,2,${DAY} 13:30:00`,
        `${beta},"Beta, the ""best"" shop",1,1,0,3,3,0,0,0,0,${DAY} 05:00:00`,
        "",
      ].join("\n"),
    );
  });
});

describe("reruns, listing and the daily schedule", () => {
  it("a rerun overwrites the same report row and file", async () => {
    const first = await runReport({ type: "dispute-outcomes", date: DAY });
    await dispute(`${DAY}T11:00:00Z`, "linked_card");
    const second = await runReport({ type: "dispute-outcomes", date: DAY });
    expect(second.report_id).toBe(first.report_id);
    expect(second.job_id).not.toBe(first.job_id);
    expect(await csvOf(second.report_id)).toContain("\nlinked_card,Several had the auth code; the card digits left one; linked,1\n");
    const row = await prisma.report.findUniqueOrThrow({ where: { id: second.report_id } });
    expect(row).toMatchObject({ status: "completed", row_count: 10, storage_key: `reports/dispute-outcomes/dispute-outcomes_${DAY}.csv`, job_id: second.job_id, error: null });
    expect(await prisma.report.count({ where: { report_key: `dispute-outcomes:${DAY}` } })).toBe(1);
    const download = await call("GET", `/reports/${second.report_id}/download`);
    expect(download.headers.get("content-disposition")).toBe(`attachment; filename="dispute-outcomes_${DAY}.csv"`);
  });

  it("lists reports newest first, paginated, filtered by type", async () => {
    const list = JSON.parse((await call("GET", "/reports?type=order-intake-daily&per_page=1")).text) as { reports: Record<string, unknown>[]; total: number; page: number; per_page: number; total_pages: number };
    expect(list).toMatchObject({ total: 2, page: 1, per_page: 1, total_pages: 2 });
    expect(list.reports[0]).toMatchObject({ type: "order-intake-daily", key: `order-intake-daily:${DAY}..${NEXT_DAY}`, from: DAY, to: NEXT_DAY, status: "completed", row_count: 4, error: null });
  });

  it("the daily job queues every report for yesterday", async () => {
    const job = await api.ctx.queues.add(reportsDailyJob, {});
    await settled(reports, job, worker);
    const yesterday = formatDay(new Date(Date.now() - 86_400_000));
    const keys = ["order-intake-daily", "dispute-outcomes", "inventory-sync-summary"].map((type) => `${type}:${yesterday}`);
    await until(
      async () => (await prisma.report.count({ where: { report_key: { in: keys }, status: "completed" } })) === 3,
      () => `three completed reports for ${yesterday}; worker output:\n${worker.output()}`,
    );
  });
});

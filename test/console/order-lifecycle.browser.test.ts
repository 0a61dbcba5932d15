import { markOrderFailed } from "@mw/domains/orders";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { FakeErp } from "../fakes/erp.ts";
import { userWith } from "../support/api.ts";
import { expectAccessible } from "../support/axe.ts";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged, runCli as cli } from "../support/processes.ts";
import { until } from "../support/wait.ts";

// An order driven through an ERP outage and a refusal by the worker's runtime, its
// state read at each step from REST, the console (Chromium) and `pnpm cli order:show`.
const TOKEN = "erp-lifecycle-token-7c1d";
let erp: FakeErp;
let worker: InProcessWorker | undefined;
let admin: string;
let page: Page;
let operator: string;
const ui = useConsole();

interface OrderState {
  id: number;
  number: string;
  state: string;
  state_reason: string | null;
  next_attempt_at: string | null;
  attempts: number;
  last_error: string | null;
  job_id: string | null;
  job_state: string | null;
  job_url: string | null;
}

beforeAll(async () => {
  erp = await new FakeErp(TOKEN).start();
  await seedItems(ui.api.ctx.prisma, ["SKU-A", "SHIPPING"]);
  admin = await userWith(ui.api, "manage_middleware");
  operator = await consoleUser(ui.api, ["manage_middleware"]);
});

afterEach(async () => {
  erp.reset();
  await worker?.stop();
});

afterAll(async () => {
  await erp.stop();
});

async function rest<T>(path: string): Promise<T> {
  const res = await fetch(`${ui.api.url}/middleware/v1${path}`, { headers: { authorization: admin } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

/** The order's lifecycle as the console's operations page shows it. */
/** A test's browser contexts close after it: each test signs in on its own page. */
async function openPage(): Promise<void> {
  if (!page || page.isClosed()) {
    page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, operator);
  }
}

async function consoleState(number: string) {
  await openPage();
  await page.goto(`${ui.api.url}/console/operations?kind=order&key=${encodeURIComponent(number)}`);
  const row = page.locator("#order-lifecycle tbody tr");
  expect(await row.count()).toBe(1);
  await expectAccessible(page);
  return {
    state: await row.locator(".order-state").textContent(),
    text: (await row.textContent()) ?? "",
    nextAttempt: await row.locator(".order-next-attempt").textContent(),
    jobLink: await row.locator("a.job-link").getAttribute("href"),
  };
}

/** The console's order page (the admin viewer's one order) as a person reads it, in GET /orders/{id}'s terms. */
async function orderPage(id: number) {
  await openPage();
  await page.goto(`${ui.api.url}/console/orders/${id}`);
  const lifecycle = page.locator("#order-lifecycle-detail");
  const text = async (selector: string) => ((await lifecycle.locator(selector).textContent()) ?? "").trim();
  const dash = (value: string) => (value === "—" ? null : value);
  const job = lifecycle.locator(".order-job a");
  await expectAccessible(page);
  return {
    state: await text(".order-state"),
    state_reason: dash(await text(".state-reason")),
    next_attempt_at: dash(await text(".order-next-attempt")),
    attempts: Number(await text(".order-attempts")),
    last_error: dash(await text(".order-last-error")),
    job_id: (await job.count()) ? ((await job.textContent()) ?? "").trim() : null,
    job_state: (await job.count()) ? await text(".order-job-state") : null,
    job_url: (await job.count()) ? await job.getAttribute("href") : null,
  };
}

/** The fields the order page shows, as GET /orders/{id} answers them. */
const lifecycleOf = (order: OrderState) => ({
  state: order.state,
  state_reason: order.state_reason,
  next_attempt_at: order.next_attempt_at,
  attempts: order.attempts,
  last_error: order.last_error,
  job_id: order.job_id,
  job_state: order.job_state,
  job_url: order.job_url,
});

async function intake(key: string, number: string): Promise<number> {
  const res = await fetch(`${ui.api.url}/middleware/v1/external/orders`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: JSON.stringify(orderBody(number)),
  });
  expect(res.status).toBe(201);
  return (await ui.api.ctx.prisma.order.findFirstOrThrow({ where: { number } })).id;
}

function startWorker(): Promise<InProcessWorker> {
  return startInProcessWorker({ WORKER_QUEUES: "orders", ERP_BASE_URL: erp.url, ERP_TOKEN: TOKEN, HTTP_TIMEOUT_MS: "2000" });
}

describe("an order's lifecycle through an ERP outage", () => {
  it("reads pending, retrying with the next attempt and the ERP's error, then verified, alike from REST, the console and the CLI", async () => {
    const site = await createSiteWithKey(ui.api.ctx.prisma);
    const number = `L${process.pid % 10000}-${Date.now() % 100000}`;
    erp.outage = "unavailable";
    const id = await intake(site.key, number);

    // No worker yet: the export job waits.
    const pending = await rest<OrderState>(`/orders/${id}`);
    expect(pending).toMatchObject({ state: "pending", attempts: 0, job_id: `order-export.${id}`, job_url: `/admin/queues/queue/orders/order-export.${id}` });
    expect((await consoleState(number)).state).toBe("pending");
    // The operations page's row opens the order's page, which shows what GET /orders/{id} answers.
    await page.locator("#order-lifecycle a.order-link").click();
    await page.waitForURL(new RegExp(`/console/orders/${id}$`));
    expect(await orderPage(id)).toEqual(lifecycleOf(await rest<OrderState>(`/orders/${id}`)));

    worker = await startWorker();
    await worker.waitFor(logged("workers started"), 120_000);
    let retrying = pending;
    await until(
      async () => (retrying = await rest<OrderState>(`/orders/${id}`)).state === "retrying",
      () => `the order to be retrying (last ${JSON.stringify(retrying)})`,
      30_000,
    );
    expect(retrying.attempts).toBeGreaterThanOrEqual(1);
    expect(retrying.last_error).toMatch(/ERP/);
    expect(retrying.state_reason).toBe(retrying.last_error);
    expect(retrying.next_attempt_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(Date.parse(`${retrying.next_attempt_at!.replace(" ", "T")}Z`)).toBeGreaterThan(Date.parse("2026-01-01"));
    // The list carries the same columns, and its `pending` filter holds the order being retried.
    const listed = await rest<{ orders: OrderState[] }>(`/orders?state=pending&search=${number}`);
    expect(listed.orders.map((row) => [row.id, row.state === "retrying" || row.state === "exporting"])).toEqual([[id, true]]);
    expect((await rest<{ orders: OrderState[] }>(`/orders?state=failed&search=${number}`)).orders).toEqual([]);

    const seen = await consoleState(number);
    // The worker may be on its next attempt by now: the page shows the queue's state as it is.
    expect(["retrying", "exporting"]).toContain(seen.state);
    expect(seen.text).toMatch(/ERP/);
    expect(seen.jobLink).toBe(`/admin/queues/queue/orders/order-export.${id}`);
    const shown = await cli("order:show", number);
    expect(shown.code).toBe(0);
    const [fromCli] = (JSON.parse(shown.stdout) as { orders: OrderState[] }).orders;
    expect(fromCli).toMatchObject({ id, number, job_id: `order-export.${id}` });
    expect(["retrying", "exporting"]).toContain(fromCli!.state);
    expect(fromCli!.last_error).toMatch(/ERP/);

    erp.outage = null;
    // The ERP is back: run the waiting retry now rather than after its backoff (as an operator would in Bull Board).
    const exportJob = await ui.api.ctx.queues.get("orders").getJob(`order-export.${id}`);
    if (exportJob && (await exportJob.getState()) === "delayed") await exportJob.promote().catch(() => undefined);
    let done = retrying;
    await until(async () => (done = await rest<OrderState>(`/orders/${id}`)).state === "verified", () => `the order to be verified (last ${JSON.stringify(done)})`, 180_000);
    expect(done).toMatchObject({ state: "verified", state_reason: null, next_attempt_at: null, job_id: `order-verify.${id}` });
    expect((await consoleState(number)).state).toBe("verified");
    expect(await orderPage(id)).toEqual(lifecycleOf(await rest<OrderState>(`/orders/${id}`)));
    const after = await cli("order:show", number);
    expect((JSON.parse(after.stdout) as { orders: OrderState[] }).orders[0]).toMatchObject({ state: "verified" });
    expect((await rest<{ orders: OrderState[] }>(`/orders?state=verified&search=${number}`)).orders.map((row) => row.id)).toEqual([id]);
  }, 420_000);

  it("reads failed with the ERP's reason once the ERP refuses the order, and the failed filter lists it", async () => {
    const site = await createSiteWithKey(ui.api.ctx.prisma);
    const number = `F${process.pid % 10000}-${Date.now() % 100000}`;
    const reason = "The field Customer No. must have a value.";
    erp.rejections.set(`${site.siteId}-${number}`, reason);
    worker = await startWorker();
    await worker.waitFor(logged("workers started"), 120_000);
    const id = await intake(site.key, number);

    let failed: OrderState | undefined;
    // The order is marked failed just before BullMQ records the job's end: wait for both.
    await until(
      async () => {
        failed = await rest<OrderState>(`/orders/${id}`);
        return failed.state === "failed" && failed.job_state === "failed" && failed.attempts === 1;
      },
      () => `the order and its job to fail (last ${JSON.stringify(failed)})`,
      60_000,
    );
    expect(failed!.state_reason).toContain(reason);
    expect(failed!.last_error).toContain(reason);
    expect(failed).toMatchObject({ attempts: 1, job_state: "failed", next_attempt_at: null });
    expect((await rest<{ orders: OrderState[] }>(`/orders?state=failed&search=${number}`)).orders.map((row) => [row.id, row.state])).toEqual([[id, "failed"]]);
    expect((await rest<{ orders: OrderState[] }>(`/orders?state=pending&search=${number}`)).orders).toEqual([]);
    const seen = await consoleState(number);
    expect(seen.state).toBe("failed");
    expect(seen.text).toContain(reason);
    const shownOnPage = await orderPage(id);
    expect(shownOnPage).toEqual(lifecycleOf(failed!));
    expect(shownOnPage).toMatchObject({ state: "failed", attempts: 1, job_id: `order-export.${id}`, job_url: `/admin/queues/queue/orders/order-export.${id}` });
    expect((await page.goto(`${ui.api.url}/console/orders/99999999`))!.status()).toBe(404);
    const shown = await cli("order:show", number);
    expect((JSON.parse(shown.stdout) as { orders: OrderState[] }).orders[0]).toMatchObject({ state: "failed" });
    expect((await cli("order:show", "NO-SUCH-ORDER")).code).toBe(1);
  }, 240_000);
});

describe("the console's order list (the admin order viewer)", () => {
  it("pages the orders 20 at a time with each one's state as GET /orders has it, filters by state and links each to its page", async () => {
    const site = await createSiteWithKey(ui.api.ctx.prisma);
    const prefix = `V${process.pid % 10000}x${Date.now() % 10000}`;
    const ids: number[] = [];
    for (let n = 1; n <= 22; n += 1) ids.push(await intake(site.key, `${prefix}-${n}`));
    await markOrderFailed(ui.api.ctx, ids[4]!, "ERP answered HTTP 400: Item SKU-A is blocked.");
    const { orders: expected } = await rest<{ orders: OrderState[] }>(`/orders?search=${prefix}&per_page=100`);
    expect(expected).toHaveLength(22);

    await openPage();
    const listed = async (query: string) => {
      await page.goto(`${ui.api.url}/console/orders?${query}`);
      const rows = page.locator("#orders tbody tr[data-order-id]");
      const found = [];
      for (let i = 0; i < (await rows.count()); i += 1) {
        const row = rows.nth(i);
        found.push({ id: Number(await row.getAttribute("data-order-id")), number: (await row.locator("a.order-link").textContent())!.trim(), state: await row.locator(".order-state").textContent() });
      }
      return found;
    };
    const byRest = expected.map((order) => ({ id: order.id, number: order.number, state: order.state }));
    expect(await listed(`search=${prefix}`)).toEqual(byRest.slice(0, 20));
    expect(await page.textContent("#order-total")).toContain("22 orders");
    expect(await page.textContent(".pager")).toContain("Page 1 of 2");
    await expectAccessible(page, "orders list");
    await page.click('.pager a[rel="next"]');
    expect(await listed(`search=${prefix}&page=2`)).toEqual(byRest.slice(20));

    // The failed filter lists the failed order alone, with the ERP's reason, and the row opens its page.
    expect(await listed(`search=${prefix}&state=failed`)).toEqual([{ id: ids[4], number: `${prefix}-5`, state: "failed" }]);
    expect(await page.textContent("#orders .state-reason")).toBe("ERP answered HTTP 400: Item SKU-A is blocked.");
    await page.click("#orders a.order-link");
    await page.waitForURL(`${ui.api.url}/console/orders/${ids[4]}`);
    expect(await page.textContent("#order-lifecycle-detail .order-state")).toBe("failed");
  }, 120_000);
});

import { orderVolumeDailyJob } from "@mw/domains/orders";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSmtp } from "../fakes/smtp.ts";
import { restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { postSite } from "../support/fixtures.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";
import { settled, until } from "../support/wait.ts";

const HOUR = 3_600_000;
const RUN = `${process.pid}-${Date.now() % 100_000}`;
const ALERT_TO = "ops@example.com";
/** With a cron token the answer names each site (without one it is public and generic: test/schedules/scheduled-endpoints.test.ts). */
const CRON_TOKEN = "order-volume-cron-token";

let smtp: FakeSmtp;
let api: TestApi;
let worker: InProcessWorker;
let admin: string;
let orderCounter = 0;

const sites: Record<"normal" | "belowMinimum" | "belowUsual" | "shortWindow" | "inactive", { id: number; name: string }> = {} as never;

/** `count` orders of the site received `hoursAgo` before now (already exported, so the worker's sweep leaves them alone). */
async function receivedOrders(siteId: number, count: number, hoursAgo: number): Promise<void> {
  const created_at = new Date(Date.now() - hoursAgo * HOUR);
  await api.ctx.prisma.order.createMany({
    data: Array.from({ length: count }, () => ({
      site_id: siteId,
      number: `V${RUN}-${++orderCounter}`.slice(0, 20),
      dateadded: created_at,
      payment_method: "pay_1",
      contact_id: 1,
      shipping_agent_code: "UPS",
      shipping_agent_service: "GROUND",
      imported: 1,
      verified: 1,
      payload_hash: "0".repeat(64),
      created_at,
    })),
  });
}

/** The same count in each of the four earlier windows: 7, 14, 21 and 28 days before, `hoursAgo` into the window. */
async function usualOrders(siteId: number, count: number, hoursAgo: number): Promise<void> {
  for (const weeks of [1, 2, 3, 4]) await receivedOrders(siteId, count, weeks * 7 * 24 + hoursAgo);
}

async function site(name: string, settings: Record<string, unknown> = {}): Promise<{ id: number; name: string }> {
  const full = `${name} ${RUN}`;
  const id = await postSite(api.url, admin, { name: full });
  if (Object.keys(settings).length > 0) {
    const res = await restCall(`${api.url}/middleware/v1/sites/${id}`, "PUT", settings, admin);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  return { id, name: full };
}

async function trigger(query = "") {
  return restCall(`${api.url}/platform/v1/trigger-order-volume-tests${query}`, "POST", undefined, `Bearer ${CRON_TOKEN}`);
}

type Result = { site: string; status: string; message: string };
const mine = (results: Result[]) => results.filter((result) => result.site.endsWith(RUN));

async function runDaily(jobId: string) {
  const job = await api.ctx.queues.add(orderVolumeDailyJob, {}, { jobId });
  return settled(api.ctx.queues.get("orders"), job, worker, 20_000);
}

const alertMails = () => smtp.messages.filter((mail) => mail.subject.startsWith("Order volume"));

beforeAll(async () => {
  smtp = await new FakeSmtp().start();
  const env = { SMTP_URL: smtp.url, ALERT_EMAIL_TO: ALERT_TO };
  api = await startApi({ ...env, CRON_TOKEN });
  admin = await userWith(api, "manage_middleware");
  // Every active site is tested: sites earlier test files left active in this slot's database would fail (no orders).
  await api.ctx.prisma.site.updateMany({ where: { is_active: true }, data: { is_active: false } });
  for (const name of ["orders", "notifications"] as const) await api.ctx.queues.get(name).obliterate({ force: true });

  sites.normal = await site("Normal");
  sites.belowMinimum = await site("Below minimum", { order_volume_min: 5 });
  sites.belowUsual = await site("Below usual");
  sites.shortWindow = await site("Short window", { order_volume_window_hours: 2 });
  sites.inactive = await site("Inactive", { is_active: false });

  await receivedOrders(sites.normal.id, 10, 1);
  await usualOrders(sites.normal.id, 12, 1);
  // 3 of a minimum of 5; no history, so only the minimum can fail it.
  await receivedOrders(sites.belowMinimum.id, 3, 1);
  // 4 against a usual 10 (half: 5). Orders just outside each earlier window do not count.
  await receivedOrders(sites.belowUsual.id, 4, 1);
  await usualOrders(sites.belowUsual.id, 10, 1);
  await usualOrders(sites.belowUsual.id, 50, 25);
  // Received 3 h ago: inside the default 24 h, outside this site's 2 h.
  await receivedOrders(sites.shortWindow.id, 6, 3);

  worker = await startInProcessWorker({ ...env, WORKER_QUEUES: "orders,notifications" });
  await worker.waitFor(logged("workers started"));
});

afterAll(async () => {
  await worker?.stop();
  await api.close();
  await smtp.stop();
});

describe("order-volume settings on the site", () => {
  it("shows the defaults and the values set through PUT /sites/{id}, and refuses values out of range", async () => {
    const get = (id: number) => restCall(`${api.url}/middleware/v1/sites/${id}`, "GET", undefined, admin);
    expect((await get(sites.normal.id)).body).toMatchObject({ order_volume_window_hours: 24, order_volume_min: 1 });
    expect((await get(sites.belowMinimum.id)).body).toMatchObject({ order_volume_window_hours: 24, order_volume_min: 5 });
    expect((await get(sites.shortWindow.id)).body).toMatchObject({ order_volume_window_hours: 2, order_volume_min: 1 });
    for (const [body, field] of [
      [{ order_volume_window_hours: 0 }, "order_volume_window_hours"],
      [{ order_volume_window_hours: 169 }, "order_volume_window_hours"],
      [{ order_volume_window_hours: 1.5 }, "order_volume_window_hours"],
      [{ order_volume_min: -1 }, "order_volume_min"],
    ] as const) {
      const res = await restCall(`${api.url}/middleware/v1/sites/${sites.normal.id}`, "PUT", body, admin);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: "rest_invalid_param", message: `Invalid parameter(s): ${field}` });
    }
  });
});

describe("POST /platform/v1/trigger-order-volume-tests (spec 2, 4.2; design 10.8)", () => {
  it("answers one result per active site: normal volume passes, too few or below half the weekday's usual fails; inactive sites are absent", async () => {
    const res = await trigger();
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const results = res.body.results as Result[];
    expect(mine(results)).toEqual([
      { site: sites.belowMinimum.name, status: "FAILURE", message: "Fewer orders than the minimum" },
      { site: sites.belowUsual.name, status: "FAILURE", message: "Order volume fell below half of the usual level for this weekday" },
      { site: sites.normal.name, status: "SUCCESS", message: "Order volume is normal" },
      { site: sites.shortWindow.name, status: "FAILURE", message: "Fewer orders than the minimum" },
    ]);
    expect(results.map((result) => result.site)).not.toContain(sites.inactive.name);
    // The outcome only: no order counts, averages or minimums on the public endpoint.
    for (const result of results) {
      expect(Object.keys(result).sort()).toEqual(["message", "site", "status"]);
      expect(result.message).not.toMatch(/\d/);
    }
  });

  it("keeps the numbers in the job's result and log", async () => {
    const job = (await api.ctx.queues.get("orders").getJob("scheduled.trigger-order-volume-tests"))!;
    const { results } = job.returnvalue as { results: Record<string, unknown>[] };
    expect(results.find((result) => result.site === sites.belowUsual.name)).toMatchObject({ orders: 4, minimum: 1, weekday_average: 10, window_hours: 24 });
    expect(results.find((result) => result.site === sites.normal.name)).toMatchObject({ orders: 10, weekday_average: 12 });
    const { logs } = await api.ctx.queues.get("orders").getJobLogs("scheduled.trigger-order-volume-tests");
    expect(logs.some((line) => line.includes(sites.belowMinimum.name) && line.includes("orders=3") && line.includes("minimum=5"))).toBe(true);
  });

  it("shares one run between calls at once, and answers 202 with the job id for ?async=1", async () => {
    const [first, second] = await Promise.all([trigger(), trigger()]);
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);

    const queued = await trigger("?async=1");
    expect(queued).toMatchObject({ status: 202, body: { success: true, job_id: "scheduled.trigger-order-volume-tests" } });
    await until(async () => (await api.ctx.queues.get("orders").getJobState("scheduled.trigger-order-volume-tests")) === "completed", () => "the queued run");
  });
});

describe("the daily order-volume run", () => {
  it("is kept as a job scheduler by the worker", async () => {
    expect(await api.ctx.queues.get("orders").getJobScheduler("order-volume-daily")).toMatchObject({ pattern: "0 6 * * *" });
  });

  it("sends nothing when every site passes, and e-mails the failures once, with the numbers", async () => {
    const failing = [sites.belowMinimum.id, sites.belowUsual.id, sites.shortWindow.id];
    await api.ctx.prisma.site.updateMany({ where: { id: { in: failing } }, data: { is_active: false } });
    const passing = await runDaily("test-daily-pass");
    expect(passing.returnvalue).toMatchObject({ alerted: false });

    await api.ctx.prisma.site.updateMany({ where: { id: { in: failing } }, data: { is_active: true } });
    const failed = await runDaily("test-daily-fail");
    expect(failed.returnvalue).toMatchObject({ alerted: true });
    await until(() => alertMails().length === 1, () => `one alert e-mail, got ${alertMails().length}; worker output:\n${worker.output()}`);
    const [mail] = alertMails();
    expect(mail!.to).toEqual([ALERT_TO]);
    expect(mail!.subject).toBe("Order volume: 3 site(s) failed the test");
    expect(mail!.text).toContain(`${sites.belowMinimum.name} (site ${sites.belowMinimum.id}): Fewer orders than the minimum. 3 order(s) in the last 24 h; minimum 5;`);
    expect(mail!.text).toContain(
      `${sites.belowUsual.name} (site ${sites.belowUsual.id}): Order volume fell below half of the usual level for this weekday. 4 order(s) in the last 24 h; minimum 1; same weekday average of the last four weeks 10 (half: 5).`,
    );
    expect(mail!.text).toContain(`${sites.shortWindow.name} (site ${sites.shortWindow.id}): Fewer orders than the minimum. 0 order(s) in the last 2 h;`);
    expect(mail!.text).not.toContain(sites.normal.name);

    // A second run the same day (a retry, a manual run) sends no second e-mail.
    await runDaily("test-daily-again");
    const notifications = api.ctx.queues.get("notifications");
    await until(async () => Object.values(await notifications.getJobCounts("waiting", "active", "delayed")).every((count) => count === 0), () => "the notifications queue to settle");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(alertMails()).toHaveLength(1);
  });
});

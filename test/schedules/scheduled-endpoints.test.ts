import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { postSite } from "../support/fixtures.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";

// The cron triggers of spec 2 (4.2) are public unless CRON_TOKEN is set. A
// public answer says whether the run worked, never why it failed or which
// sites fared how; a caller with the token gets the spec's full answers.
const TOKEN = "a-cron-token-of-the-deployment";
const TIME_SYNC = "/platform/v1/time_sync";
const ORDER_VOLUME = "/platform/v1/trigger-order-volume-tests";
const SCHEDULED = [TIME_SYNC, ORDER_VOLUME, "/platform/v1/update_milestones", "/platform/v1/update_milestones_tasks"];

let open: TestApi;
let guarded: TestApi;
let worker: InProcessWorker;
let siteName: string;
let siteId: number;

const call = (api: TestApi, path: string, headers: Record<string, string> = {}) => fetch(`${api.url}${path}`, { method: "POST", headers });

beforeAll(async () => {
  [open, guarded] = await Promise.all([startApi(), startApi({ CRON_TOKEN: TOKEN })]);
  await open.ctx.options.set({ "time_api.enabled": false });
  for (const name of ["orders", "timetracking"] as const) await open.ctx.queues.get(name).obliterate({ force: true });
  siteName = `Cron probe ${process.pid}`;
  siteId = await postSite(open.url, await userWith(open, "manage_middleware"), { name: siteName });
  worker = await startInProcessWorker({ WORKER_QUEUES: "orders,timetracking" });
  await worker.waitFor(logged("workers started"));
});

afterAll(async () => {
  await worker?.stop();
  await open.ctx.prisma.site.update({ where: { id: siteId }, data: { is_active: false } });
  await open.ctx.options.set({ "time_api.enabled": null });
  await Promise.all([open.close(), guarded.close()]);
});

describe("scheduled endpoints without CRON_TOKEN", () => {
  it("answer a failed run without its reason, which stays in the job", async () => {
    const res = await restCall(`${open.url}${TIME_SYNC}`, "POST");
    expect(res).toMatchObject({ status: 500, body: { code: "sync_error", message: "time_sync failed; the reason is in the log of job scheduled.time_sync.", data: { status: 500 } } });
    expect(JSON.stringify(res.body)).not.toMatch(/disabled/i);
    const job = (await open.ctx.queues.get("timetracking").getJob("scheduled.time_sync"))!;
    expect(job.failedReason).toBe("Time tracking is disabled");
  });

  it("list no site: the order-volume answer keeps its shape with no results, the job has them", async () => {
    const res = await restCall(`${open.url}${ORDER_VOLUME}`, "POST");
    expect(res).toEqual({ status: 200, headers: expect.anything(), body: { success: true, results: [] } });
    const job = (await open.ctx.queues.get("orders").getJob("scheduled.trigger-order-volume-tests"))!;
    expect((job.returnvalue as { results: { site: string }[] }).results.map((result) => result.site)).toContain(siteName);
  });
});

describe("scheduled endpoints with CRON_TOKEN set", () => {
  it("refuse a call without the token, with a wrong one or with it in the query, before any run", async () => {
    const before = await guarded.ctx.queues.get("timetracking").getJobCounts("completed", "failed", "waiting", "active");
    for (const path of SCHEDULED) {
      for (const headers of <Record<string, string>[]>[{}, { authorization: `Bearer ${TOKEN}x` }, { authorization: TOKEN }, { authorization: `Basic ${Buffer.from(`cron:${TOKEN}`).toString("base64")}` }]) {
        const res = await call(guarded, path, headers);
        expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe('Bearer realm="scheduled"');
        expect(await res.json()).toEqual({ code: "rest_forbidden", message: "A cron token is required: Authorization: Bearer <CRON_TOKEN>.", data: { status: 401 } });
      }
      expect((await call(guarded, `${path}?token=${TOKEN}`)).status).toBe(401);
    }
    expect(await guarded.ctx.queues.get("timetracking").getJobCounts("completed", "failed", "waiting", "active")).toEqual(before);
  });

  it("give the token's bearer the spec's answers: the failure's reason and each site by name", async () => {
    const auth = `Bearer ${TOKEN}`;
    expect(await restCall(`${guarded.url}${TIME_SYNC}`, "POST", undefined, auth)).toMatchObject({
      status: 500,
      body: { code: "sync_error", message: "time_sync failed: Time tracking is disabled" },
    });
    const volume = await restCall(`${guarded.url}${ORDER_VOLUME}`, "POST", undefined, auth);
    expect(volume.status).toBe(200);
    expect(volume.body.results).toContainEqual({ site: siteName, status: "FAILURE", message: "Fewer orders than the minimum" });
  });
});

describe("the per-address limit of the scheduled endpoints", () => {
  it("answers 429 past SCHEDULED_RATE_LIMIT_PER_MINUTE calls a minute, counted over all of them", async () => {
    const limited = await startApi({ SCHEDULED_RATE_LIMIT_PER_MINUTE: "3" });
    try {
      // This file's earlier calls came from the same address within the minute.
      const counters = await limited.ctx.redis.keys(`${limited.ctx.config.QUEUE_PREFIX}:ratelimit:scheduled:*`);
      if (counters.length) await limited.ctx.redis.del(...counters);
      const answers = [];
      for (const path of [...SCHEDULED, TIME_SYNC]) answers.push(await call(limited, `${path}?async=1`));
      // ?async=1 answers 202 even when this file's worker ended the run before the answer was made.
      expect(answers.map((res) => res.status)).toEqual([202, 202, 202, 429, 429]);
      const refused = answers[3]!;
      expect(await refused.json()).toEqual({ code: "rate_limited", message: "Too many calls of the scheduled endpoints from this address; retry later.", data: { status: 429, retry_after: expect.any(Number) } });
      expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

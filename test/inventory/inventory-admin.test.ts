import type { Queue } from "bullmq";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { createSiteWithKey, postSite } from "../support/fixtures.ts";

const ROUTE = "/middleware/v1/testing/inventory/sync";

let api: TestApi;
let inventory: Queue;
let admin: string;
let staff: string;

beforeAll(async () => {
  api = await startApi();
  inventory = api.ctx.queues.get("inventory");
  admin = await userWith(api, "manage_middleware");
  staff = await userWith(api, "staff");
});
beforeEach(async () => {
  await inventory.obliterate({ force: true });
});
afterAll(() => api.close());

async function trigger(options: { body?: unknown; query?: string; authorization?: string | null } = {}) {
  const { status, body } = await restCall(`${api.url}${ROUTE}${options.query ?? ""}`, "POST", options.body, options.authorization === undefined ? admin : options.authorization);
  return { status, body };
}

/** A site with inventory sync on unless the flags say otherwise. */
function site(flags: { is_active?: boolean; inventory_sync?: boolean } = {}): Promise<number> {
  return postSite(api.url, admin, { inventory_sync: true, ...flags });
}

const JOB_ID = /^inventory-sync\.\d+\.test\.\d+$/;

describe("POST /testing/inventory/sync", () => {
  it("answers 403 rest_forbidden without credentials and without manage_middleware", async () => {
    const anonymous = await trigger({ body: { site_id: "all" }, authorization: null });
    expect(anonymous.status).toBe(403);
    expect(anonymous.body.code).toBe("rest_forbidden");
    const forbidden = await trigger({ body: { site_id: "all" }, authorization: staff });
    expect(forbidden).toEqual({ status: 403, body: { code: "rest_forbidden", message: "Sorry, you are not allowed to do that.", data: { status: 403 } } });
    expect(await inventory.getJobCounts("waiting")).toEqual({ waiting: 0 });
  });

  it("queues one full inventory-sync job for one site, given in the JSON body", async () => {
    const id = await site();
    const res = await trigger({ body: { site_id: id } });
    expect(res).toEqual({ status: 200, body: { success: true, queued: [{ site_id: id, job_id: expect.stringMatching(JOB_ID) }], failed: [], skipped: [] } });
    const job = await inventory.getJob((res.body.queued as { job_id: string }[])[0]!.job_id);
    expect(job).toMatchObject({ name: "inventory-sync", data: { site_id: id } });
    expect(job!.data).not.toHaveProperty("product_ids");
    expect(await job!.getState()).toBe("waiting");
  });

  it("takes site_id from the query string too, and the body's when both are given", async () => {
    const fromQuery = await site();
    const fromBody = await site();
    const query = await trigger({ query: `?site_id=${fromQuery}` });
    expect(query.body).toMatchObject({ success: true, queued: [{ site_id: fromQuery }], failed: [] });
    const both = await trigger({ query: `?site_id=${fromQuery}`, body: { site_id: String(fromBody) } });
    expect(both.body).toMatchObject({ success: true, queued: [{ site_id: fromBody }] });
    expect((await inventory.getJobs(["waiting"])).map((job) => job.data.site_id).sort()).toEqual([fromQuery, fromBody].sort());
  });

  it("all: one job for every active site with inventory sync, none for the others, each of which is listed as skipped with why", async () => {
    const synced = [await site(), await site()];
    const notSynced = [await site({ inventory_sync: false }), await site({ is_active: false })];
    const res = await trigger({ body: { site_id: "all" } });
    expect(res.status).toBe(200);
    const queued = res.body.queued as { site_id: number; job_id: string }[];
    const queuedIds = queued.map((entry) => entry.site_id);
    for (const id of synced) expect(queuedIds).toContain(id);
    for (const id of notSynced) expect(queuedIds).not.toContain(id);
    const skipped = res.body.skipped as { site_id: number; reason: string }[];
    expect(skipped).toContainEqual({ site_id: notSynced[0], reason: "inventory sync is off for this site" });
    expect(skipped).toContainEqual({ site_id: notSynced[1], reason: "the site is inactive" });
    for (const id of synced) expect(skipped.map((entry) => entry.site_id)).not.toContain(id);
    // Every site is either queued, failed or skipped: nothing is left out silently.
    const answered = new Set([...queuedIds, ...skipped.map((entry) => entry.site_id), ...(res.body.failed as { site_id: number }[]).map((entry) => entry.site_id)]);
    expect(answered.size).toBe(await api.ctx.prisma.site.count());
    const eligible = await api.ctx.prisma.site.findMany({ where: { is_active: true, inventory_sync: true }, select: { id: true, api_credentials: true } });
    expect(queued).toHaveLength(eligible.filter((row) => row.api_credentials).length);
    const jobs = await inventory.getJobs(["waiting"]);
    expect(jobs).toHaveLength(queued.length);
    for (const entry of queued) {
      expect(entry.job_id).toMatch(JOB_ID);
      expect(await inventory.getJob(entry.job_id)).toMatchObject({ name: "inventory-sync", data: { site_id: entry.site_id } });
    }
    expect(await trigger({ query: "?site_id=all" })).toMatchObject({ status: 200, body: { queued: expect.any(Array) } });
  });

  it("all: lists a syncing site without API credentials as failed", async () => {
    const { siteId } = await createSiteWithKey(api.ctx.prisma);
    await api.ctx.prisma.site.update({ where: { id: siteId }, data: { inventory_sync: true } });
    const res = await trigger({ body: { site_id: "all" } });
    expect(res.body.success).toBe(false);
    expect(res.body.failed).toContainEqual({ site_id: siteId, message: "The site has no API credentials." });
    expect((res.body.queued as { site_id: number }[]).map((entry) => entry.site_id)).not.toContain(siteId);
    await api.ctx.prisma.site.update({ where: { id: siteId }, data: { inventory_sync: false } });
  });

  it("refuses one site that is inactive or does not sync inventory, as a failure, queueing nothing", async () => {
    const off = await site({ inventory_sync: false });
    const inactive = await site({ is_active: false });
    expect(await trigger({ body: { site_id: off } })).toEqual({
      status: 200,
      body: { success: false, queued: [], failed: [{ site_id: off, message: "Inventory sync is off for this site." }], skipped: [] },
    });
    expect((await trigger({ body: { site_id: inactive } })).body).toEqual({ success: false, queued: [], failed: [{ site_id: inactive, message: "The site is inactive." }], skipped: [] });
    expect(await inventory.getJobCounts("waiting")).toEqual({ waiting: 0 });
  });

  it("answers 404 for an unknown site", async () => {
    expect(await trigger({ body: { site_id: 2147000002 } })).toEqual({ status: 404, body: { code: "rest_not_found", message: "Site not found.", data: { status: 404 } } });
  });

  it.each([
    ["a word", { body: { site_id: "abc" } }],
    ["zero", { body: { site_id: 0 } }],
    ["a negative id", { body: { site_id: -3 } }],
    ["a fraction", { body: { site_id: 1.5 } }],
    ["a boolean", { body: { site_id: true } }],
    ["a list", { body: { site_id: [1] } }],
    ["ALL in capitals", { body: { site_id: "ALL" } }],
    ["an id too large", { body: { site_id: 2147483648 } }],
    ["a bad query value", { query: "?site_id=all,1" }],
    ["a repeated query parameter", { query: "?site_id=1&site_id=2" }],
  ])("answers 400 rest_invalid_param for %s", async (_label, request) => {
    const res = await trigger(request);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): site_id", data: { status: 400 } });
  });

  it("answers 400 rest_missing_callback_param when site_id is absent", async () => {
    for (const request of [{}, { body: {} }, { body: { site_id: null } }, { query: "?site_id=" }]) {
      expect(await trigger(request)).toEqual({
        status: 400,
        body: { code: "rest_missing_callback_param", message: "Missing parameter(s): site_id", data: { status: 400, params: ["site_id"] } },
      });
    }
    expect(await inventory.getJobCounts("waiting")).toEqual({ waiting: 0 });
  });
});

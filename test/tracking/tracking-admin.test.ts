import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { formatDateTime } from "@mw/platform";
import { trackingSchedule, TRACKING_SYNC_EVERY_MS } from "@mw/domains/tracking";
import type { Queue } from "bullmq";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closedPort, expectAdminOnly, restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { postSite } from "../support/fixtures.ts";
import { startInProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";
import { until } from "../support/wait.ts";

const ROOT = "/middleware/v1";

let api: TestApi;
let tracking: Queue;
let admin: string;
let staff: string;

beforeAll(async () => {
  api = await startApi();
  tracking = api.ctx.queues.get("tracking");
  admin = await userWith(api, "manage_middleware");
  staff = await userWith(api, "staff");
});
beforeEach(async () => {
  await tracking.obliterate({ force: true });
});
afterAll(() => api.close());

function call(method: string, route: string, body?: unknown, authorization: string | null = admin, base = api.url) {
  return restCall(`${base}${ROOT}${route}`, method, body, authorization);
}

const TRACKED = { tracking_sync: true, tracking_enabled: true };

function createSite(overrides: Record<string, unknown> = {}, base = api.url): Promise<number> {
  return postSite(base, admin, overrides);
}

async function schedulerOf(siteId: number) {
  return tracking.getJobScheduler(`tracking-sync.${siteId}`);
}

async function insertRun(siteId: number, run: { status: string; started: string; finished?: string; counts?: object; error?: string; job?: string }) {
  return api.ctx.prisma.syncRun.create({
    data: {
      site_id: siteId,
      kind: "tracking",
      status: run.status,
      job_id: run.job ?? null,
      started_at: new Date(`${run.started}Z`),
      finished_at: run.finished ? new Date(`${run.finished}Z`) : null,
      counts: run.counts ?? undefined,
      error: run.error ?? null,
    },
  });
}

describe("access", () => {
  it("answers 403 rest_forbidden without credentials and without manage_middleware", async () => {
    const routes = [
      ["POST", "/tracking/sync/1"],
      ["POST", "/tracking/sync-all"],
      ["GET", "/tracking/status/1"],
    ] as const;
    await expectAdminOnly(`${api.url}${ROOT}`, routes, staff);
    expect(await tracking.getJobCounts()).toMatchObject({ waiting: 0 });
  });
});

describe("the per-site job scheduler follows the site", () => {
  it("is created with a tracked site: every 30 minutes, job tracking-sync {site_id}, the first run at once", async () => {
    const id = await createSite(TRACKED);
    const scheduler = await schedulerOf(id);
    expect(scheduler).toMatchObject({ key: `tracking-sync.${id}`, name: "tracking-sync", every: TRACKING_SYNC_EVERY_MS, template: { data: { site_id: id } } });
    expect(TRACKING_SYNC_EVERY_MS).toBe(1_800_000);
    const jobs = await tracking.getJobs(["waiting", "delayed"]);
    expect(jobs.map((job) => ({ name: job.name, data: job.data, scheduler: job.repeatJobKey }))).toEqual([
      { name: "tracking-sync", data: { site_id: id }, scheduler: `tracking-sync.${id}` },
    ]);
  });

  it("is created for a site given only the spec's fields with tracking_sync on, and the manual trigger queues it", async () => {
    const id = await createSite({ tracking_sync: true });
    expect(await schedulerOf(id)).toBeDefined();
    expect((await call("GET", `/sites/${id}`)).body).toMatchObject({ tracking_sync: true, tracking_enabled: true });
    expect((await call("POST", `/tracking/sync/${id}`)).status).toBe(200);
    const later = await createSite();
    expect(await schedulerOf(later)).toBeUndefined();
    expect((await call("PUT", `/sites/${later}`, { tracking_sync: true })).status).toBe(200);
    expect(await schedulerOf(later)).toBeDefined();
  });

  it("needs both tracking flags and an active site", async () => {
    const listOnly = await createSite({ tracking_sync: true, tracking_enabled: false });
    const flagOnly = await createSite({ tracking_enabled: true });
    const inactive = await createSite({ ...TRACKED, is_active: false });
    for (const id of [listOnly, flagOnly, inactive]) expect(await schedulerOf(id), `site ${id}`).toBeUndefined();
    expect(await tracking.getJobSchedulersCount()).toBe(0);
  });

  it("is removed and created again as the flags, the active state and the site change", async () => {
    const id = await createSite(TRACKED);
    expect(await schedulerOf(id)).toBeDefined();

    expect((await call("PUT", `/sites/${id}`, { tracking_enabled: false })).status).toBe(200);
    expect(await schedulerOf(id)).toBeUndefined();
    expect((await call("PUT", `/sites/${id}`, { tracking_enabled: true })).status).toBe(200);
    expect(await schedulerOf(id)).toBeDefined();

    expect((await call("PUT", `/sites/${id}`, { tracking_sync: false })).status).toBe(200);
    expect(await schedulerOf(id)).toBeUndefined();
    expect((await call("PUT", `/sites/${id}`, { tracking_sync: true })).status).toBe(200);
    expect(await schedulerOf(id)).toBeDefined();

    expect((await call("PUT", `/sites/${id}`, { is_active: false })).status).toBe(200);
    expect(await schedulerOf(id)).toBeUndefined();
    expect((await call("PUT", `/sites/${id}`, { is_active: true })).status).toBe(200);
    expect(await schedulerOf(id)).toBeDefined();

    expect((await call("POST", `/sites/${id}/toggle-status`)).body).toMatchObject({ is_active: false });
    expect(await schedulerOf(id)).toBeUndefined();
    expect((await call("POST", `/sites/${id}/toggle-status`)).body).toMatchObject({ is_active: true });
    expect(await schedulerOf(id)).toBeDefined();

    expect((await call("DELETE", `/sites/${id}`)).status).toBe(200);
    expect(await schedulerOf(id)).toBeUndefined();
    expect(await tracking.getJobs(["waiting", "delayed"])).toEqual([]);
  });

  it("keeps its next run when a save leaves tracking as it was", async () => {
    const id = await createSite(TRACKED);
    const before = await schedulerOf(id);
    expect((await call("PUT", `/sites/${id}`, { name: `Renamed ${id}`, status_filters: "9" })).status).toBe(200);
    const after = await schedulerOf(id);
    expect(after?.next).toBe(before?.next);
    expect((await tracking.getJobs(["waiting", "delayed"])).length).toBe(1);
  });

  it("reconcile restores lost schedulers and removes stale ones, leaving other schedulers alone", async () => {
    const tracked = await createSite(TRACKED);
    const untracked = await createSite({ tracking_sync: true, tracking_enabled: false });
    // Redis lost the tracked site's scheduler; stale ones exist for an untracked and a deleted site.
    await tracking.obliterate({ force: true });
    await tracking.upsertJobScheduler(`tracking-sync.${untracked}`, { every: TRACKING_SYNC_EVERY_MS }, { name: "tracking-sync", data: { site_id: untracked } });
    await tracking.upsertJobScheduler("tracking-sync.2147000000", { every: TRACKING_SYNC_EVERY_MS }, { name: "tracking-sync", data: { site_id: 2147000000 } });
    await tracking.upsertJobScheduler("another-schedule", { every: 60_000 }, { name: "another", data: {} });

    const result = await trackingSchedule.reconcile(api.ctx.prisma, api.ctx.queues);

    expect(result.removed).toBe(2);
    expect(await schedulerOf(tracked)).toMatchObject({ every: TRACKING_SYNC_EVERY_MS, template: { data: { site_id: tracked } } });
    expect(await schedulerOf(untracked)).toBeUndefined();
    expect(await tracking.getJobScheduler("tracking-sync.2147000000")).toBeUndefined();
    expect(await tracking.getJobScheduler("another-schedule")).toBeDefined();
  });

  it("a worker serving the tracking queue reconciles at start", async () => {
    const tracked = await createSite(TRACKED);
    await tracking.obliterate({ force: true });
    // Paused, so the worker registers schedulers without taking the jobs they produce.
    await tracking.pause();
    const worker = await startInProcessWorker({ WORKER_QUEUES: "tracking" });
    try {
      await worker.waitFor(logged("tracking schedules reconciled"));
      expect(await schedulerOf(tracked)).toMatchObject({ template: { data: { site_id: tracked } } });
    } finally {
      await worker.stop();
      await tracking.resume();
    }
  });

  it("a save whose scheduler update fails still answers, logs the error, and reconcile puts it right", async () => {
    const port = await closedPort();
    const logDir = mkdtempSync(path.join(tmpdir(), "mw-tracking-"));
    const broken = await startApi({ REDIS_URL: `redis://127.0.0.1:${port}`, LOG_DIR: logDir });
    try {
      const id = await createSite(TRACKED, broken.url);
      expect(await schedulerOf(id)).toBeUndefined();
      const read = () =>
        readdirSync(logDir)
          .map((name) => readFileSync(path.join(logDir, name), "utf8"))
          .join("\n");
      await until(() => read().includes("site schedules not updated"), () => `the error in the log:\n${read()}`);
      expect(read()).toMatch(new RegExp(`"site_id":${id}`));

      await trackingSchedule.reconcile(api.ctx.prisma, api.ctx.queues);
      expect(await schedulerOf(id)).toBeDefined();
    } finally {
      broken.ctx.redis.disconnect();
      await broken.close().catch(() => {});
      rmSync(logDir, { recursive: true, force: true });
    }
  });
});

describe("POST /tracking/sync/{site_id} and /tracking/sync-all", () => {
  it("queues a tracking-sync job that runs at once and names it", async () => {
    const id = await createSite(TRACKED);
    const res = await call("POST", `/tracking/sync/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, queued: [{ site_id: id, job_id: expect.stringMatching(new RegExp(`^tracking-sync\\.${id}\\.manual\\.\\d+$`)) }] });
    const jobId = (res.body.queued as { job_id: string }[])[0]!.job_id;
    const job = await tracking.getJob(jobId);
    expect(job).toMatchObject({ name: "tracking-sync", data: { site_id: id } });
    expect(job!.repeatJobKey).toBeUndefined();
    expect(await job!.getState()).toBe("waiting");
    // Ahead of the scheduler's own first run, which was already waiting: ascending order is the order workers take jobs in.
    expect((await tracking.getJobs(["waiting"], 0, -1, true)).map((waiting) => waiting.id)).toEqual([jobId, expect.stringMatching(/^repeat:/)]);
  });

  it("answers 404 for an unknown site and 400 for a site that does not sync tracking", async () => {
    expect((await call("POST", "/tracking/sync/2147000001")).body).toEqual({ code: "rest_not_found", message: "Site not found.", data: { status: 404 } });
    expect((await call("POST", "/tracking/sync/abc")).body).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): site_id" });
    for (const flags of [{ tracking_sync: true, tracking_enabled: false }, { tracking_enabled: true }, { ...TRACKED, is_active: false }]) {
      const id = await createSite(flags);
      const res = await call("POST", `/tracking/sync/${id}`);
      expect(res.status, JSON.stringify(flags)).toBe(400);
      expect(res.body).toMatchObject({
        code: "rest_invalid_param",
        message: "Invalid parameter(s): site_id",
        data: { status: 400, params: { site_id: expect.stringContaining("tracking_enabled") } },
      });
    }
    expect(await tracking.getJobs(["waiting"])).toEqual([]);
  });

  it("sync-all queues one job for every site that syncs tracking, and lists the others as skipped with why", async () => {
    const tracked = [await createSite(TRACKED), await createSite(TRACKED)];
    const others = [await createSite({ tracking_sync: true, tracking_enabled: false }), await createSite({ ...TRACKED, is_active: false })];
    const res = await call("POST", "/tracking/sync-all");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const queued = res.body.queued as { site_id: number; job_id: string }[];
    const queuedSites = queued.map((entry) => entry.site_id);
    for (const id of tracked) expect(queuedSites).toContain(id);
    for (const id of others) expect(queuedSites).not.toContain(id);
    const skipped = res.body.skipped as { site_id: number; reason: string }[];
    expect(skipped).toContainEqual({ site_id: others[0], reason: "tracking sync is off for this site (it needs tracking_sync and tracking_enabled)" });
    expect(skipped).toContainEqual({ site_id: others[1], reason: "the site is inactive" });
    expect(queued.length + skipped.length).toBe(await api.ctx.prisma.site.count());
    const eligible = await api.ctx.prisma.site.count({ where: { is_active: true, tracking_sync: true, tracking_enabled: true } });
    expect(queued).toHaveLength(eligible);
    for (const entry of queued) {
      expect(await tracking.getJob(entry.job_id)).toMatchObject({ name: "tracking-sync", data: { site_id: entry.site_id } });
    }
  });
});

describe("GET /tracking/status/{site_id}", () => {
  it("reports a site that never ran: enabled, next run from its scheduler, no run, no error", async () => {
    const id = await createSite(TRACKED);
    const scheduler = await schedulerOf(id);
    const res = await call("GET", `/tracking/status/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ site_id: id, enabled: true, last_run: null, next_run: formatDateTime(new Date(scheduler!.next!)), last_error: null });
    expect(res.body.next_run).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("gives the latest run with its counts and the latest failure", async () => {
    const id = await createSite(TRACKED);
    const counts = { orders: 6, shipments_created: 2, already_posted: 1, skipped_carrier: 1, skipped_invalid: 0, unmapped_carrier: 0, not_linked: 1, awaiting_shipment: 1, completed: 2, errors: 0 };
    await insertRun(id, { status: "failed", started: "2026-11-20 08:00:00", finished: "2026-11-20 08:00:05", error: "ERP answered 503", job: "repeat:a" });
    await insertRun(id, { status: "failed", started: "2026-11-20 09:00:00", finished: "2026-11-20 09:00:07.250", error: "storefront refused the token", job: "repeat:b" });
    await insertRun(id, { status: "completed", started: "2026-11-20 09:30:00", finished: "2026-11-20 09:31:10", counts, job: "repeat:c" });
    const res = await call("GET", `/tracking/status/${id}`);
    expect(res.body).toMatchObject({
      site_id: id,
      enabled: true,
      last_run: { job_id: "repeat:c", status: "completed", started_at: "2026-11-20 09:30:00", finished_at: "2026-11-20 09:31:10", counts, error: null },
      last_error: { message: "storefront refused the token", at: "2026-11-20 09:00:07", job_id: "repeat:b" },
    });

    // A run recorded before the skip reasons were counted reads them as 0.
    const { not_linked: _notLinked, awaiting_shipment: _awaiting, ...older } = counts;
    const other = await createSite(TRACKED);
    await insertRun(other, { status: "completed", started: "2026-11-19 09:30:00", finished: "2026-11-19 09:31:10", counts: older, job: "repeat:d" });
    expect((await call("GET", `/tracking/status/${other}`)).body.last_run).toMatchObject({ counts: { ...older, not_linked: 0, not_exported: 0, awaiting_shipment: 0, claimed_by_other_run: 0 } });

    await insertRun(id, { status: "running", started: "2026-11-20 10:00:00", job: "tracking-sync.manual" });
    expect((await call("GET", `/tracking/status/${id}`)).body.last_run).toEqual({
      job_id: "tracking-sync.manual",
      status: "running",
      started_at: "2026-11-20 10:00:00",
      finished_at: null,
      counts: null,
      error: null,
    });
  });

  it("shows a site that does not sync tracking as disabled with no next run; 404 for an unknown site", async () => {
    const id = await createSite({ tracking_sync: true, tracking_enabled: false });
    expect((await call("GET", `/tracking/status/${id}`)).body).toEqual({ site_id: id, enabled: false, last_run: null, next_run: null, last_error: null });
    expect((await call("GET", "/tracking/status/2147000001")).body).toMatchObject({ code: "rest_not_found", data: { status: 404 } });
  });
});

describe("site list", () => {
  it("shows the end of each site's latest completed tracking run and its tracking flag", async () => {
    const ran = await createSite(TRACKED);
    const never = await createSite({ tracking_sync: true, tracking_enabled: false });
    await insertRun(ran, { status: "completed", started: "2026-11-20 09:00:00", finished: "2026-11-20 09:01:02" });
    await insertRun(ran, { status: "completed", started: "2026-11-20 09:30:00", finished: "2026-11-20 09:31:40.900" });
    await insertRun(ran, { status: "failed", started: "2026-11-20 10:00:00", finished: "2026-11-20 10:00:01", error: "x" });
    await insertRun(ran, { status: "running", started: "2026-11-20 10:30:00" });
    await api.ctx.prisma.syncRun.create({ data: { site_id: ran, kind: "inventory", status: "completed", started_at: new Date(), finished_at: new Date() } });

    const res = await fetch(`${api.url}${ROOT}/sites`, { headers: { authorization: admin } });
    const rows = (await res.json()) as Record<string, unknown>[];
    expect(rows.find((row) => row.id === ran)).toMatchObject({ tracking_sync: true, tracking_enabled: true, tracking_last_run: "2026-11-20 09:31:40" });
    expect(rows.find((row) => row.id === never)).toMatchObject({ tracking_sync: true, tracking_enabled: false, tracking_last_run: null });
  });
});

describe("OpenAPI", () => {
  it("documents the tracking routes", async () => {
    const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(doc.paths[`${ROOT}/tracking/sync/{site_id}`]).toHaveProperty("post");
    expect(doc.paths[`${ROOT}/tracking/sync-all`]).toHaveProperty("post");
    expect(doc.paths[`${ROOT}/tracking/status/{site_id}`]).toHaveProperty("get");
  });
});

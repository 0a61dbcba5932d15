import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeHarvest } from "../fakes/harvest.ts";
import { HttpSink } from "../fakes/http-sink.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";
import { enableTimeTracking, TIME_OPTIONS } from "../support/timetracking.ts";
import { until } from "../support/wait.ts";

let harvest: FakeHarvest;
let chat: HttpSink;
let api: TestApi;
let worker: InProcessWorker;
/** With a cron token a failed run says why (without one the answer is generic: test/schedules/scheduled-endpoints.test.ts). */
const CRON_TOKEN = "time-tracking-cron-token";

async function call(path: string, query = "") {
  const res = await fetch(`${api.url}/platform/v1/${path}${query}`, { method: "POST", headers: { authorization: `Bearer ${CRON_TOKEN}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const chatTexts = () => chat.requests.map((request) => (JSON.parse(request.body) as { text: string }).text);

beforeAll(async () => {
  [harvest, chat] = await Promise.all([new FakeHarvest().start(), new HttpSink().start()]);
  const env = { HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url, TIME_SYNC_DELAY_MS: "0", CHAT_WEBHOOK_URL: `${chat.url}/services/T0/B0/X0` };
  api = await startApi({ ...env, CRON_TOKEN });
  await enableTimeTracking(api, harvest);
  for (const name of ["timetracking", "notifications"] as const) await api.ctx.queues.get(name).obliterate({ force: true });
  worker = await startInProcessWorker({ ...env, WORKER_QUEUES: "timetracking,notifications" });
  await worker.waitFor(logged("workers started"));
});
afterAll(async () => {
  await worker.stop();
  await api.ctx.options.set(Object.fromEntries(TIME_OPTIONS.map((name) => [name, null])));
  await api.close();
  await Promise.all([harvest.stop(), chat.stop()]);
});

describe("scheduled endpoints (spec 2, 4.2; design 10.8)", () => {
  it("/time_sync mirrors clients, projects, tasks and entries and answers the counts; two calls at once share one run", async () => {
    harvest.clients.push({ id: 71, name: "ACME", is_active: true });
    const project = harvest.addProject({ name: "Shop rebuild", client: { id: 71, name: "ACME" }, budget: 10 });
    harvest.assignments.get(project.id)![1]!.budget = 4;
    for (const hours of [3, 3]) harvest.addEntry(project, { hours });
    harvest.addEntry(project, { hours: 4, task: { id: 502, name: "Development" } });
    const before = harvest.requests.filter((request) => request.path === "/v2/clients").length;
    const [first, second] = await Promise.all([call("time_sync"), call("time_sync")]);
    const counts = { clients: harvest.clients.length, projects: harvest.projects.length, tasks: 2, time_entries: harvest.entries.length };
    expect(first).toEqual({ status: 200, body: { success: true, message: expect.stringMatching(/^Synced /), data: counts } });
    expect(second.body).toEqual(first.body);
    expect(harvest.requests.filter((request) => request.path === "/v2/clients").length - before).toBe(1);
    expect(await api.ctx.prisma.harvestTimeEntryMirror.count({ where: { project_id: project.id } })).toBe(3);
    expect(await api.ctx.prisma.harvestProjectMirror.findUnique({ where: { id: project.id } })).toMatchObject({ name: "Shop rebuild", client_id: 71 });

    // 10 h used of 10: every project threshold once; the Development task's 4 h of 4: every task threshold once.
    expect(await call("update_milestones")).toEqual({ status: 200, body: { success: true, alerts_sent: 4 } });
    expect(await call("update_milestones")).toEqual({ status: 200, body: { success: true, alerts_sent: 0 } });
    expect(await call("update_milestones_tasks")).toEqual({ status: 200, body: { success: true, alerts_sent: 4 } });
    expect(await call("update_milestones_tasks")).toEqual({ status: 200, body: { success: true, alerts_sent: 0 } });
    await until(() => chat.requests.length === 8, () => `eight chat messages, got ${chat.requests.length}`);
    expect(chatTexts()).toContain('Project "Shop rebuild" reached 100 % of its budget: 10 of 10 h used.');
    expect(chatTexts()).toContain('Task "Development" on project "Shop rebuild" reached 50 % of its budget: 4 of 4 h used.');
  });

  it("answers 202 with the job id for ?async=1, and 500 sync_error naming what is missing", async () => {
    const queued = await call("time_sync", "?async=1");
    expect(queued).toMatchObject({ status: 202, body: { success: true, job_id: "scheduled.time_sync" } });
    await until(async () => (await api.ctx.queues.get("timetracking").getJobState("scheduled.time_sync")) === "completed", () => "the queued sync");
    await api.ctx.options.set({ "time_api.sync_token": null });
    // The worker process reads options through its own short cache.
    await new Promise((resolve) => setTimeout(resolve, 4_100));
    expect(await call("time_sync")).toEqual({ status: 500, body: { code: "sync_error", message: "time_sync failed: Time tracking sync credentials are not set: time_api.sync_token missing.", data: { status: 500 } } });
  });
});

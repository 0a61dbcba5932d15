import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeHarvest } from "../fakes/harvest.ts";
import { HttpSink } from "../fakes/http-sink.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { enableTimeTracking, TIME_OPTIONS } from "../support/timetracking.ts";
import { until } from "../support/wait.ts";

// Issue 32: with time tracking on, the platform syncs Harvest and checks milestones on its own
// job schedulers; nobody calls /platform/v1/time_sync or /update_milestones here.
let harvest: FakeHarvest;
let chat: HttpSink;
let api: TestApi;
let worker: InProcessWorker;
// Every two seconds rather than the hourly defaults, so the test need not wait an hour.
const SCHEDULES = { TIME_SYNC_SCHEDULE: "*/2 * * * * *", MILESTONES_SCHEDULE: "*/2 * * * * *" };

beforeAll(async () => {
  [harvest, chat] = await Promise.all([new FakeHarvest().start(), new HttpSink().start()]);
  const env = { HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url, TIME_SYNC_DELAY_MS: "0", CHAT_WEBHOOK_URL: `${chat.url}/services/T0/B0/X0`, ...SCHEDULES };
  api = await startApi(env);
  await enableTimeTracking(api, harvest);
  for (const name of ["timetracking", "notifications"] as const) await api.ctx.queues.get(name).obliterate({ force: true });
  worker = await startInProcessWorker({ ...env, WORKER_QUEUES: "timetracking,notifications" });
  await worker.waitFor(/"message":"schedules reconciled".*"why":"worker started"/, 90_000);
}, 150_000);

afterAll(async () => {
  await worker?.stop();
  await api?.ctx.options.set(Object.fromEntries(TIME_OPTIONS.map((name) => [name, null])));
  await api?.close();
  await Promise.all([harvest?.stop(), chat?.stop()]);
});

describe("the platform's own time-tracking schedules", () => {
  it("syncs Harvest and alerts a reached milestone with no outside call, each threshold once", async () => {
    const timetracking = api.ctx.queues.get("timetracking");
    expect(await timetracking.getJobScheduler("time-sync")).toMatchObject({ pattern: SCHEDULES.TIME_SYNC_SCHEDULE, tz: "UTC" });
    expect(await timetracking.getJobScheduler("milestone-checks")).toMatchObject({ pattern: SCHEDULES.MILESTONES_SCHEDULE, tz: "UTC" });

    const project = harvest.addProject({ name: "Own schedules", budget: 8 });
    harvest.addEntry(project, { hours: 6.5 });
    const texts = () => chat.requests.map((request) => (JSON.parse(request.body) as { text: string }).text).filter((text) => text.includes('"Own schedules"'));
    await until(() => texts().length === 2, () => `two milestone messages, got ${JSON.stringify(texts())}; worker output:\n${worker.output().slice(-3000)}`, 60_000);
    expect(texts().sort()).toEqual(['Project "Own schedules" reached 50 % of its budget: 6.5 of 8 h used.', 'Project "Own schedules" reached 75 % of its budget: 6.5 of 8 h used.']);

    // Later runs find the same thresholds already alerted; a new entry crosses the next two.
    harvest.addEntry(project, { hours: 1.5 });
    await until(() => texts().length === 4, () => `four milestone messages, got ${JSON.stringify(texts())}`, 60_000);
    expect(texts().filter((text) => text.includes("reached 90 %") || text.includes("reached 100 %"))).toHaveLength(2);
    expect(await api.ctx.prisma.milestoneAlert.count({ where: { project_id: project.id } })).toBe(4);
  }, 150_000);
});

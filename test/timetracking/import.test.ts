import { timeImportJob } from "@mw/domains/timetracking";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeHarvest, type FakeProject } from "../fakes/harvest.ts";
import { FakeSmtp } from "../fakes/smtp.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged, spawnEntry } from "../support/processes.ts";
import { newTicketId } from "../support/tickets.ts";
import { ajax, enableTimeTracking, staffMember, TIME_OPTIONS } from "../support/timetracking.ts";
import { until } from "../support/wait.ts";

let harvest: FakeHarvest;
let smtp: FakeSmtp;
let api: TestApi;
let worker: InProcessWorker;
let runs = 0;

/** One import run, as the schedule would start it; answers its result. */
async function importNow(): Promise<Record<string, unknown>> {
  runs += 1;
  const job = await api.ctx.queues.add(timeImportJob, {}, { jobId: `test-import-${Date.now()}-${runs}` });
  await until(async () => ["completed", "failed"].includes(await job.getState()), () => `the import; worker output:\n${worker.output().slice(-2000)}`);
  const done = (await api.ctx.queues.get("timetracking").getJob(job.id!))!;
  if (done.failedReason) throw new Error(done.failedReason);
  return done.returnvalue as Record<string, unknown>;
}

beforeAll(async () => {
  [harvest, smtp] = await Promise.all([new FakeHarvest().start(), new FakeSmtp().start()]);
  const env = { HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url, SMTP_URL: smtp.url };
  api = await startApi(env);
  await enableTimeTracking(api, harvest);
  await api.ctx.queues.get("timetracking").obliterate({ force: true });
  worker = await startInProcessWorker({ ...env, WORKER_QUEUES: "timetracking" });
  await worker.waitFor(logged("workers started"));
  // The schedules' own runs would race the test's: drop them once the worker made them (each holds a delayed
  // job for its next run), and let the first import finish.
  const queue = api.ctx.queues.get("timetracking");
  const scheduled = ["time-import", "time-sync", "milestone-checks"];
  await until(async () => (await Promise.all(scheduled.map((name) => queue.getJobScheduler(name)))).every(Boolean), () => "the timetracking schedules");
  for (const name of scheduled) await queue.removeJobScheduler(name);
  await until(async () => {
    const counts = await queue.getJobCounts("active", "waiting", "delayed");
    return Object.values(counts).every((count) => count === 0);
  }, () => "the first scheduled import to finish");
});
afterAll(async () => {
  await worker.stop();
  await api.ctx.options.set(Object.fromEntries(TIME_OPTIONS.map((name) => [name, null])));
  await api.close();
  await Promise.all([harvest.stop(), smtp.stop()]);
});

describe("time import and the over-budget lock (spec 2, 4.5 rule 5 and section 3)", () => {
  it("stores each entry once, follows Harvest's edits and deletions, locks past budget x 1.25, notifies the project manager once, and only they unlock", async () => {
    const pm = await staffMember(api);
    const other = await staffMember(api);
    const pmUser = { id: 2002, first_name: "Pat", last_name: "Manager", email: `pat${pm.staffId}@agency.example` };
    harvest.users.push(pmUser);
    await api.ctx.prisma.staff.create({ data: { id: pm.staffId, name: "Pat Manager", email: pmUser.email } });
    const project: FakeProject = harvest.addProject({ name: "Budgeted", budget: 10 });
    harvest.assignUser(project, pmUser, true);
    const ticketId = newTicketId();
    await api.ctx.prisma.ticket.create({ data: { id: ticketId, number: String(ticketId), subject: "Rebuild checkout", status: "open", opened_at: new Date(), time_project_id: project.id, budget_hours: "8.00" } });
    const entries = [4, 4, 4].map((hours, n) => harvest.addEntry(project, { hours, spent_date: `2026-11-2${n}` }));

    expect(await importNow()).toMatchObject({ entries_added: 3, locked: [] });
    let ticket = await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } });
    expect([Number(ticket.hours_used), Number(ticket.budget_hours), ticket.locked]).toEqual([12, 10, false]);
    expect(await importNow()).toMatchObject({ entries_added: 0, entries_updated: 0, entries_removed: 0 });
    expect(await api.ctx.prisma.projectTimeEntry.count({ where: { ticket_id: ticketId } })).toBe(3);

    entries[0]!.hours = 5;
    harvest.addEntry(project, { hours: 1, spent_date: "2026-11-23" });
    expect(await importNow()).toMatchObject({ entries_added: 1, entries_updated: 1, locked: [ticketId] });
    ticket = await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } });
    expect([Number(ticket.hours_used), ticket.locked]).toEqual([14, true]);
    await until(() => smtp.messages.some((mail) => mail.subject === `Ticket #${ticketId} is over budget and locked`), () => "the lock e-mail");
    expect(smtp.messages.filter((mail) => mail.subject.includes(`#${ticketId}`)).map((mail) => mail.to)).toEqual([[pmUser.email]]);
    expect(await api.ctx.prisma.staffNotification.count({ where: { ticket_id: ticketId, staff_id: pm.staffId } })).toBe(1);

    expect(await ajax(api, "POST", `unlock/${ticketId}`, other.authorization)).toEqual({ status: 403, body: { success: false, data: `Only the project manager of ticket #${ticketId} can unlock it.` } });
    expect((await ajax(api, "POST", `unlock/${ticketId}`, pm.authorization)).body).toEqual({ success: true, data: { ticket_id: ticketId, locked: false } });

    harvest.addEntry(project, { hours: 0.5, spent_date: "2026-11-24" });
    expect(await importNow()).toMatchObject({ locked: [] });
    harvest.addEntry(project, { hours: 1, spent_date: "2026-11-25" });
    expect(await importNow()).toMatchObject({ locked: [ticketId] });
    await until(() => smtp.messages.filter((mail) => mail.subject.includes(`#${ticketId}`)).length === 2, () => "the second lock e-mail");

    harvest.entries.splice(harvest.entries.indexOf(entries[1]!), 1);
    expect(await importNow()).toMatchObject({ entries_removed: 1 });
    expect(Number((await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).hours_used)).toBe(11.5);

    const timeline = (await ajax(api, "GET", `timeline/${ticketId}`, pm.authorization)).body.data as { items: { type: string; at: string }[] };
    expect(timeline.items.map((item) => item.type)).toEqual(["entry", "entry", "entry", "entry", "entry", "locked", "unlocked", "locked"]);
    expect(timeline.items.map((item) => item.at)).toEqual([...timeline.items.map((item) => item.at)].sort());
  });
});

describe("pnpm cli time:import", () => {
  it("runs the import on demand and prints its counts", async () => {
    const project = harvest.addProject({ name: "On demand" });
    for (const hours of [1, 2]) harvest.addEntry(project, { hours });
    const ticketId = newTicketId();
    await api.ctx.prisma.ticket.create({ data: { id: ticketId, number: String(ticketId), subject: "On demand", status: "open", opened_at: new Date(), time_project_id: project.id } });
    const run = spawnEntry("packages/api/src/cli/main.ts", ["time:import"], { HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url });
    expect((await run.exited()).code).toBe(0);
    const summary = JSON.parse(run.output().split("\n").find((line) => line.startsWith('{"success"'))!) as Record<string, unknown>;
    expect(summary).toMatchObject({ success: true, entries_added: 2 });
    expect(run.output()).toMatch(/\d+\/\d+ projects imported/);
    expect(Number((await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).hours_used)).toBe(3);
  });
});

describe("the Harvest rate limit across workers (design 10.4)", () => {
  it("keeps two workers importing at once within 100 requests per 15 s, with no 429", async () => {
    // Two workers taking one import each: the shared one steps aside.
    await worker.stop();
    const env = { HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url, WORKER_QUEUES: "timetracking", WORKER_CONCURRENCY_TIMETRACKING: "1" };
    const pair = [spawnEntry("packages/worker/src/main.ts", [], env), spawnEntry("packages/worker/src/main.ts", [], env)];
    try {
      await Promise.all(pair.map((one) => one.waitFor(logged("workers started"))));
      for (let n = 0; n < 60; n += 1) {
        const project = harvest.addProject({ name: `Bulk ${n}` });
        harvest.addEntry(project, { hours: 0.5 });
        const ticketId = newTicketId();
        await api.ctx.prisma.ticket.create({ data: { id: ticketId, number: String(ticketId), subject: `Bulk ${n}`, status: "open", opened_at: new Date(), time_project_id: project.id } });
      }
      const admitted = harvest.admitted.length;
      const refused = harvest.refused;
      const [a, b] = await Promise.all([api.ctx.queues.add(timeImportJob, {}, { jobId: "two-workers-a" }), api.ctx.queues.add(timeImportJob, {}, { jobId: "two-workers-b" })]);
      await until(async () => (await a.getState()) === "completed" && (await b.getState()) === "completed", () => "both imports", 60_000);
      expect(harvest.admitted.length - admitted).toBeGreaterThan(120);
      expect(harvest.refused - refused).toBe(0);
      expect(harvest.busiestWindow()).toBeLessThanOrEqual(100);
      const workers = await Promise.all([a, b].map(async (job) => (await api.ctx.queues.get("timetracking").getJob(job.id!))!.processedBy));
      expect(new Set(workers).size).toBe(2);
    } finally {
      for (const one of pair) one.child.kill("SIGKILL");
      await Promise.all(pair.map((one) => one.exited()));
    }
  }, 90_000);
});

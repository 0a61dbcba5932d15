import { projectCreateJob } from "@mw/domains/timetracking";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGemini } from "../fakes/gemini.ts";
import { FakeHarvest, type FakeProject } from "../fakes/harvest.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";
import { entrySignal, newTicketId, postSignal, SECURITY_KEY, ticketBody } from "../support/tickets.ts";
import { ajax, connectStaff, enableTimeTracking, staffMember, TIME_OPTIONS } from "../support/timetracking.ts";
import { until } from "../support/wait.ts";

let harvest: FakeHarvest;
let gemini: FakeGemini;
let api: TestApi;
let worker: InProcessWorker;
let project: FakeProject;

beforeAll(async () => {
  [harvest, gemini] = await Promise.all([new FakeHarvest().start(), new FakeGemini("AIzaFAKE-followups").start()]);
  gemini.respond = () => JSON.stringify({ note: "Cache cleared, shop fast again" });
  const env = { HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url, AI_BASE_URL: gemini.url, AI_API_KEY: "AIzaFAKE-followups", AI_RETRY_BASE_MS: "10" };
  api = await startApi(env);
  await enableTimeTracking(api, harvest, { ai_security_key: SECURITY_KEY });
  await api.ctx.queues.get("timetracking").obliterate({ force: true });
  project = harvest.addProject({ name: "#004600 Slow shop", budget: 8 });
  worker = await startInProcessWorker({ ...env, WORKER_QUEUES: "timetracking" });
  await worker.waitFor(logged("workers started"));
});
afterAll(async () => {
  await worker.stop();
  await api.ctx.options.set(Object.fromEntries([...TIME_OPTIONS, "ai_security_key"].map((name) => [name, null])));
  await api.close();
  await Promise.all([harvest.stop(), gemini.stop()]);
});

describe("time follows the ticket's signals", () => {
  it("a staff reply ends that staff member's running timer: stopped at Harvest, the reply's text as notes, linked to the entry, then the AI's description", async () => {
    const staff = await staffMember(api);
    await connectStaff(api, harvest, staff.authorization);
    const ticketId = newTicketId();
    await postSignal(api, { signal: "ticket.created", ticket: ticketBody(ticketId, { fields: { time_project_id: project.id } }) });
    const entryId = ((await ajax(api, "POST", "timer/start", staff.authorization, { ticket_id: ticketId })).body.data as { entry_id: number }).entry_id;
    const reply = entrySignal(ticketId, "R", "<p>Cleared the cache, the shop is fast again.</p>", { staff_id: staff.staffId, format: "html" });
    reply.ticket = ticketBody(ticketId, { fields: { time_project_id: project.id } });
    await postSignal(api, reply);
    await until(
      async () => !(await api.ctx.prisma.timeLog.findUniqueOrThrow({ where: { provider_entry_id: BigInt(entryId) } })).is_running,
      () => `the timer to stop; worker output:\n${worker.output().slice(-2000)}`,
    );
    expect(await api.ctx.prisma.timeLog.findUniqueOrThrow({ where: { provider_entry_id: BigInt(entryId) } })).toMatchObject({ thread_entry_id: reply.entry.id });
    // Design 10.8: note_ai_enabled (on by default) replaces a person's note with the AI's description afterwards.
    await until(async () => (await api.ctx.prisma.timeLog.findUniqueOrThrow({ where: { provider_entry_id: BigInt(entryId) } })).ai_optimized, () => `the note to be optimised; worker output:\n${worker.output().slice(-2000)}`);
    expect(await api.ctx.prisma.timeLog.findUniqueOrThrow({ where: { provider_entry_id: BigInt(entryId) } })).toMatchObject({ notes: "Cache cleared, shop fast again", is_running: false });
    expect(harvest.entries.find((entry) => entry.id === entryId)).toMatchObject({ is_running: false, notes: "Cache cleared, shop fast again" });
    expect(JSON.stringify(gemini.calls[0]!.body)).toContain("Cleared the cache, the shop is fast again.");
    expect(harvest.requests.some((request) => request.method === "PATCH" && request.path === `/v2/time_entries/${entryId}/stop`)).toBe(true);
  });

  it("an assignment of a ticket without a project creates one under the organisation's client, with the budget, once", async () => {
    const ticketId = newTicketId();
    const ticket = ticketBody(ticketId, { organisation: { id: 88, name: "Widgets Ltd" }, fields: { time_project_id: null, budget_hours: 12, quoted_hours: 10 } });
    await postSignal(api, { signal: "ticket.created", ticket });
    await postSignal(api, { signal: "ticket.assigned", ticket: { ...ticket, assigned_staff_id: 12 } });
    await until(async () => (await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).time_project_id !== null, () => `the project; worker output:\n${worker.output().slice(-2000)}`);
    const linked = (await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).time_project_id!;
    const created = harvest.projects.find((candidate) => candidate.id === linked)!;
    expect(created).toMatchObject({ name: `#${String(ticketId).padStart(6, "0")} Checkout down`, client: { name: "Widgets Ltd" }, budget: 12, budget_by: "project" });

    await api.ctx.prisma.ticket.update({ where: { id: ticketId }, data: { time_project_id: null } });
    const again = await api.ctx.queues.add(projectCreateJob, { ticket_id: ticketId }, { jobId: `again-${ticketId}` });
    await until(async () => (await again.getState()) === "completed", () => "the second run");
    expect(harvest.projects.filter((candidate) => candidate.name === created.name)).toHaveLength(1);
    expect(harvest.clients.filter((client) => client.name === "Widgets Ltd")).toHaveLength(1);
    expect((await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).time_project_id).toBe(linked);
  });

  it("queues no project while time tracking is disabled", async () => {
    await api.ctx.options.set({ "time_api.enabled": false });
    const ticketId = newTicketId();
    await postSignal(api, { signal: "ticket.assigned", ticket: ticketBody(ticketId, { fields: { time_project_id: null } }) });
    expect(await api.ctx.queues.get("timetracking").getJob(`project-create.${ticketId}`)).toBeUndefined();
    await api.ctx.options.set({ "time_api.enabled": true });
  });
});

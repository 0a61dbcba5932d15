import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeGemini } from "../fakes/gemini.ts";
import { FakeHarvest, type FakeProject } from "../fakes/harvest.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { newTicketId } from "../support/tickets.ts";
import { ajax as timeAjax, connectStaff, enableTimeTracking, staffMember, TIME_OPTIONS } from "../support/timetracking.ts";

const PROVIDER_KEY = "AIzaFAKE-notes-key-61b0";
let harvest: FakeHarvest;
let gemini: FakeGemini;
let api: TestApi;
let project: FakeProject;
let staff: { staffId: number; authorization: string };

const ajax = (method: string, path: string, body?: unknown, authorization = staff.authorization) => timeAjax(api, method, path, authorization, body);

async function ticketOnProject(overrides: Record<string, unknown> = {}): Promise<number> {
  const id = newTicketId();
  await api.ctx.prisma.ticket.create({ data: { id, number: String(id), subject: "Checkout down", status: "open", opened_at: new Date(), time_project_id: project.id, ...overrides } });
  return id;
}

const stops = () => harvest.requests.filter((request) => request.method === "PATCH" && request.path.endsWith("/stop")).length;

beforeAll(async () => {
  [harvest, gemini] = await Promise.all([new FakeHarvest().start(), new FakeGemini(PROVIDER_KEY).start()]);
  api = await startApi({ HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url, AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY, AI_RETRY_BASE_MS: "10" });
  await enableTimeTracking(api, harvest);
  project = harvest.addProject({ name: "#004512 Checkout down", budget: 10 });
  staff = await staffMember(api);
  await connectStaff(api, harvest, staff.authorization);
});
beforeEach(async () => {
  gemini.reset();
  await enableTimeTracking(api, harvest);
});
afterAll(async () => {
  await api.ctx.options.set(Object.fromEntries(TIME_OPTIONS.map((name) => [name, null])));
  await api.close();
  await Promise.all([harvest.stop(), gemini.stop()]);
});

describe("timers and entries (spec 2, 4.5 and section 3)", () => {
  it("starts one timer per ticket, shows it running, updates its notes, stops it, and a submit finalises that one entry", async () => {
    const ticketId = await ticketOnProject();
    const started = await ajax("POST", "timer/start", { ticket_id: ticketId });
    expect(started).toMatchObject({ status: 200, body: { success: true, data: { started: true, is_running: true, hours: 0, project_id: project.id, task: { id: 501 } } } });
    const entryId = (started.body.data as { entry_id: number }).entry_id;
    expect((await ajax("POST", "timer/start", { ticket_id: ticketId })).body).toMatchObject({ data: { started: false, entry_id: entryId } });
    expect((await ajax("GET", `timer/${project.id}`)).body).toMatchObject({ data: { running: true, entry_id: entryId } });
    expect(await api.ctx.prisma.timeLog.findUnique({ where: { provider_entry_id: BigInt(entryId) } })).toMatchObject({ is_running: true, hours: null, ticket_id: ticketId, staff_id: staff.staffId });

    expect((await ajax("PATCH", `timer/${entryId}`, { notes: "Looking at logs" })).body).toMatchObject({ data: { notes: "Looking at logs" } });
    const before = stops();
    expect((await ajax("POST", `timer/${entryId}/stop`)).body).toMatchObject({ data: { is_running: false } });
    expect((await ajax("GET", `timer/${project.id}`)).body).toEqual({ success: true, data: { running: false } });

    const submitted = await ajax("POST", "submit", { ticket_id: ticketId, entry_id: entryId, notes: "Fix checkout 500 error", ai_optimized: true, thread_entry_id: 992 });
    expect(submitted.body).toMatchObject({ success: true, data: { entry_id: entryId, is_running: false, notes: "Fix checkout 500 error" } });
    expect(stops() - before).toBe(1);
    expect(harvest.entries.filter((entry) => entry.id === entryId)).toHaveLength(1);
    const log = await api.ctx.prisma.timeLog.findUniqueOrThrow({ where: { provider_entry_id: BigInt(entryId) } });
    expect(log).toMatchObject({ is_running: false, notes: "Fix checkout 500 error", ai_optimized: true, thread_entry_id: 992 });
    expect(Number(log.hours)).toBeGreaterThan(0);
  });

  it("submits a running timer in one step: stopped, notes pushed, finalised", async () => {
    const ticketId = await ticketOnProject();
    const entryId = ((await ajax("POST", "timer/start", { ticket_id: ticketId })).body.data as { entry_id: number }).entry_id;
    const before = stops();
    expect((await ajax("POST", "submit", { ticket_id: ticketId, entry_id: entryId, notes: "Cleared cache" })).body).toMatchObject({ data: { is_running: false, notes: "Cleared cache" } });
    expect(stops() - before).toBe(1);
    expect(harvest.entries.find((entry) => entry.id === entryId)).toMatchObject({ is_running: false, notes: "Cleared cache" });
  });

  it("logs a manual entry with hours as a finished entry", async () => {
    const ticketId = await ticketOnProject();
    const manual = await ajax("POST", "submit", { ticket_id: ticketId, hours: 1.5, task_id: 502, notes: "Deploy fix" });
    expect(manual.body).toMatchObject({ success: true, data: { hours: 1.5, is_running: false, task: { id: 502 } } });
    const entryId = (manual.body.data as { entry_id: number }).entry_id;
    const log = await api.ctx.prisma.timeLog.findUniqueOrThrow({ where: { provider_entry_id: BigInt(entryId) } });
    expect(log).toMatchObject({ is_running: false, notes: "Deploy fix", ticket_id: ticketId });
    expect(Number(log.hours)).toBe(1.5);
  });

  it("refuses time on a ticket without a project, on a locked ticket, from a staff member not connected, and bad input", async () => {
    expect((await ajax("POST", "timer/start", { ticket_id: await ticketOnProject({ time_project_id: null }) })).body).toEqual({ success: false, data: expect.stringMatching(/is not linked to a time-tracking project/) });
    const lockedTicket = await ticketOnProject({ locked: true, department_manager_staff_id: staff.staffId });
    const manager = staff;
    const stranger = await staffMember(api);
    await connectStaff(api, harvest, stranger.authorization);
    await api.ctx.prisma.staff.upsert({ where: { id: manager.staffId }, create: { id: manager.staffId, name: "Pat Manager" }, update: { name: "Pat Manager" } });
    const locked = await ajax("POST", "timer/start", { ticket_id: lockedTicket }, stranger.authorization);
    // The refusal says who can unlock (issue 22): the project manager by name, from the staff directory.
    expect(locked).toEqual({ status: 403, body: { success: false, data: `Ticket #${lockedTicket} is over budget and locked: only its project manager, Pat Manager, can log more time or unlock it.` } });
    expect((await ajax("POST", "submit", { ticket_id: lockedTicket, hours: 1, notes: "x" }, stranger.authorization)).status).toBe(403);
    // Its project manager (here the department manager, with no lock event naming another) still can.
    expect((await ajax("POST", "timer/start", { ticket_id: lockedTicket }, manager.authorization)).body).toMatchObject({ success: true, data: { started: true } });
    const unconnected = await staffMember(api);
    expect((await ajax("POST", "timer/start", { ticket_id: await ticketOnProject() }, unconnected.authorization)).body).toEqual({ success: false, data: "Connect your Harvest account first (timetracking/connect-url)." });
    const bad = await ajax("POST", "submit", { ticket_id: 1, hours: -2, notes: "x" });
    expect(bad).toMatchObject({ status: 400, body: { success: false } });
    expect((await ajax("POST", `timer/999999999/stop`)).status).toBe(404);
  });

  it("lists a project's tasks with the sync credentials", async () => {
    const tasks = await ajax("GET", `tasks/${project.id}`);
    expect(tasks.body).toEqual({ success: true, data: { tasks: [{ id: 501, name: "Support", billable: true }, { id: 502, name: "Development", billable: true }], default_task_id: 501 } });
    const request = harvest.requests.filter((candidate) => candidate.path === `/v2/projects/${project.id}/task_assignments`).at(-1)!;
    expect(String(request.headers.authorization)).toMatch(/^Bearer pat-/);
    await api.ctx.options.set({ "time_api.sync_token": null });
    expect((await ajax("GET", `tasks/${project.id}`)).body).toEqual({ success: false, data: "Time tracking sync credentials are not set: time_api.sync_token missing." });
  });
});

describe("optimize-note (spec 2, 4.5)", () => {
  const words = (text: string) => text.trim().split(/\s+/).length;

  it("asks the assistant model for 2 to 8 words and tries again when the answer is longer", async () => {
    gemini.script({ text: JSON.stringify({ note: "I looked into the checkout error and then cleared the cache for you" }) }, { text: JSON.stringify({ note: "Checkout error fixed, cache cleared" }) });
    const answer = await ajax("POST", "optimize-note", { text: "Hi, I looked into the checkout error, cleared the cache and redeployed the payment plugin." });
    expect(answer.body).toEqual({ success: true, data: { note: "Checkout error fixed, cache cleared", engine: "model", model: "gemini-2.5-flash" } });
    expect(gemini.calls).toHaveLength(2);
  });

  it("uses the rules when time_api.note_ai_enabled is off, still 2 to 8 words", async () => {
    await api.ctx.options.set({ "time_api.note_ai_enabled": false });
    for (const text of ["Hi team, I looked into the checkout error, cleared the cache and redeployed the payment plugin for the client.", "ok", "Thanks!"]) {
      const answer = await ajax("POST", "optimize-note", { text });
      expect(answer.body).toMatchObject({ success: true, data: { engine: "rules" } });
      const note = (answer.body.data as { note: string }).note;
      expect(words(note)).toBeGreaterThanOrEqual(2);
      expect(words(note)).toBeLessThanOrEqual(8);
    }
    expect(gemini.calls).toHaveLength(0);
  });
});

import { OPTIONS, OPTIONS_CACHE_MS } from "@mw/domains/options";
import { createUser } from "@mw/domains/identity";
import { criticalAlertJob, purgeUrgencyHistory } from "@mw/domains/urgency";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeGemini } from "../fakes/gemini.ts";
import { FakeSms } from "../fakes/sms.ts";
import { FakeSmtp } from "../fakes/smtp.ts";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { logged, spawnEntry, type Spawned } from "../support/processes.ts";
import { analysisAnswer, entrySignal, newTicketId, postSignal, SECURITY_KEY, ticketBody } from "../support/tickets.ts";
import { until } from "../support/wait.ts";

const PROVIDER_KEY = "AIzaFAKE-urgency-key-2f9a";
let gemini: FakeGemini;
let smtp: FakeSmtp;
let sms: FakeSms;
let api: TestApi;
let worker: Spawned;
let staff: string;

async function resetOptions(changes: Record<string, unknown> = {}) {
  await api.ctx.options.set({ ...Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])), ai_security_key: SECURITY_KEY, urgency_gate_seconds: 0, urgency_max_per_run: 1000, ...changes });
}

interface TicketView {
  history: { event: string; channel: string | null; detail: Record<string, unknown> | null; sent_at: string | null }[];
  [field: string]: unknown;
}

const numberOf = (id: number) => String(id).padStart(6, "0");

async function ticket(id: number) {
  const res = await fetch(`${api.url}/tickets/v1/tickets/${numberOf(id)}`, { headers: { authorization: staff } });
  return { status: res.status, body: (await res.json()) as TicketView };
}

const snapshots = (ticketId: number) => api.ctx.prisma.aiSnapshot.findMany({ where: { ticket_id: ticketId }, orderBy: { id: "asc" } });

async function analysed(ticketId: number, count: number) {
  await until(async () => (await snapshots(ticketId)).length >= count, () => `ticket ${ticketId} to have ${count} snapshot(s); worker output:\n${worker.output().slice(-3000)}`, 20_000);
}

beforeAll(async () => {
  [gemini, smtp, sms] = await Promise.all([new FakeGemini(PROVIDER_KEY).start(), new FakeSmtp().start(), new FakeSms("AC0123456789abcdef", "sms-auth-token").start()]);
  const env = { AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY, AI_RETRY_BASE_MS: "10", SMTP_URL: smtp.url, SMS_API_URL: sms.url, SMS_ACCOUNT_SID: sms.accountSid, SMS_AUTH_TOKEN: sms.authToken, SMS_FROM: "+15550001111" };
  api = await startApi(env);
  await resetOptions();
  for (const name of ["urgency", "notifications"] as const) await api.ctx.queues.get(name).obliterate({ force: true });
  worker = spawnEntry("packages/worker/src/main.ts", [], { ...env, WORKER_QUEUES: "urgency,notifications" });
  await worker.waitFor(logged("workers started"));
  const user = await createUser(api.ctx, { login: uniqueLogin("staff"), capabilities: ["staff"] });
  staff = basicAuth(user.login, user.application_password);
});

beforeEach(() => {
  gemini.reset();
  gemini.respond = () => analysisAnswer(40);
});

afterAll(async () => {
  worker.child.kill("SIGKILL");
  await worker.exited();
  // A staff id links one user: the next file of this database may link the fixtures' staff 9 to its own.
  await api.ctx.prisma.user.updateMany({ where: { staff_id: 9 }, data: { staff_id: null } });
  await resetOptions({ ai_security_key: null, urgency_gate_seconds: null, urgency_max_per_run: null });
  await api.close();
  await Promise.all([gemini.stop(), smtp.stop(), sms.stop()]);
});

describe("signals (design 10.1)", () => {
  it("stores a thread entry and answers 202 once; the same signal again changes nothing and answers 200", async () => {
    const id = newTicketId();
    const body = entrySignal(id, "M", "Since 9am no customer can pay.");
    expect(await postSignal(api, body)).toEqual({ status: 202, body: { success: true, signal: "threadentry.created", changed: true, queued: true } });
    expect(await postSignal(api, body)).toEqual({ status: 200, body: { success: true, signal: "threadentry.created", changed: false, queued: false } });
    const stored = await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id }, include: { entries: true } });
    expect(stored).toMatchObject({ number: numberOf(id), subject: "Checkout down", client_name: "Ann Lee", assigned_staff_id: 9, department_manager_staff_id: 4 });
    expect(Number(stored.budget_hours)).toBe(10);
    expect(stored.entries).toHaveLength(1);
    await analysed(id, 1);
  });

  it("stores signals that arrive together for a new organisation and a new ticket, each once", async () => {
    const organisation = { id: newTicketId(), name: "Brand New Ltd" };
    const ids = Array.from({ length: 12 }, () => newTicketId());
    const shared = ids[0]!;
    const bodies = [...ids.map((id) => entrySignal(id, "M", "hello")), ...Array.from({ length: 8 }, () => entrySignal(shared, "M", "again"))].map((body) => ({ ...body, ticket: { ...body.ticket, organisation } }));
    const answers = await Promise.all(bodies.map((body) => postSignal(api, body)));
    expect(answers.map((answer) => answer.status)).toEqual(bodies.map(() => 202));
    expect(await api.ctx.prisma.ticketEntry.count({ where: { ticket_id: shared } })).toBe(9);
    expect(await api.ctx.prisma.ticket.count({ where: { organisation_id: organisation.id } })).toBe(12);
    expect(await api.ctx.prisma.urgencyQueueEntry.count({ where: { ticket_id: { in: ids } } })).toBe(12);
  });

  it("takes ids, numbers and flags as PHP encodes them (strings, 0 and 1)", async () => {
    const id = newTicketId();
    const body = entrySignal(id, "N", "Internal: checked the logs.", { id: String(entrySignal(id, "N", "").entry.id), staff_id: "9", is_internal: 1, poster_type: "staff" });
    const php = { ...body, ticket: { ...body.ticket, id: String(id), number: id, is_vip: "0", assigned_staff_id: "9", fields: { time_project_id: "4411", budget_hours: "12.5", quoted_hours: null } } };
    expect((await postSignal(api, php)).status).toBe(202);
    const stored = await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id }, include: { entries: true } });
    expect(stored).toMatchObject({ number: String(id), is_vip: false, assigned_staff_id: 9, time_project_id: 4411 });
    expect(Number(stored.budget_hours)).toBe(12.5);
    expect(stored.entries[0]).toMatchObject({ type: "N", poster_type: "Staff", staff_id: 9, is_internal: true });
    await analysed(id, 1);
  });

  it("refuses a wrong key with 401 and a bad field with 400 invalid_params naming it", async () => {
    expect((await postSignal(api, entrySignal(newTicketId(), "M", "hi"), "wrong-key")).status).toBe(401);
    const refused = await postSignal(api, entrySignal(newTicketId(), "M", "hi", { type: "X" }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "invalid_params", data: { status: 400 } });
    expect(String(refused.body.message)).toMatch(/^entry\.type: /);
    const badTime = await postSignal(api, { signal: "ticket.updated", ticket: { ...ticketBody(newTicketId()), created: "yesterday" } });
    expect(String(badTime.body.message)).toMatch(/^ticket\.created: /);
  });

  it("applies ticket.updated and ticket.assigned unless older than the stored one, and queues no analysis", async () => {
    const id = newTicketId();
    expect((await postSignal(api, { signal: "ticket.updated", ticket: ticketBody(id, { status: "open", updated: "2026-11-20T10:00:00Z" }) })).status).toBe(200);
    const older = await postSignal(api, { signal: "ticket.updated", ticket: ticketBody(id, { status: "closed", updated: "2026-11-20T09:00:00Z" }) });
    expect(older.body).toMatchObject({ changed: false, queued: false });
    expect((await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id } })).status).toBe("open");
    const newer = await postSignal(api, { signal: "ticket.assigned", ticket: ticketBody(id, { assigned_staff_id: 12, updated: "2026-11-20T11:00:00Z" }) });
    expect(newer).toMatchObject({ status: 200, body: { changed: true, queued: false } });
    expect((await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id } })).assigned_staff_id).toBe(12);
    expect(await api.ctx.prisma.urgencyQueueEntry.findUnique({ where: { ticket_id: id } })).toBeNull();
  });
});

describe("the analysis (spec 2, 4.7)", () => {
  it("writes the six fields, one snapshot and one history row from the thread's entries, HTML cleaned", async () => {
    const id = newTicketId();
    gemini.respond = () => analysisAnswer(62, { estimated_hours: 2.25 });
    await postSignal(api, entrySignal(id, "M", "<p>Since 9am no customer can pay.</p><div class=\"gmail_quote\">On Mon, Ann wrote:<blockquote>old quoted text</blockquote></div>", { format: "html" }));
    await analysed(id, 1);
    const { status, body } = await ticket(id);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      ai_urgency: "HIGH",
      ai_urgency_percentage: 62,
      ai_estimated_hours: 2.25,
      ticket_summary: "<p>Checkout fails for every customer.</p>",
      ai_timeline: "<ul><li>09:00 reported</li></ul>",
      ai_suggested_title: "Checkout returns 500 for all customers",
      urgency_queue: { state: "processed", failures: 0 },
    });
    expect(body.history.filter((row) => row.event === "analysis")).toHaveLength(1);
    expect(await snapshots(id)).toHaveLength(1);
    const sent = JSON.parse(gemini.calls[0]!.body.contents![0]!.parts![0]!.text!) as Record<string, unknown>;
    expect(sent).toMatchObject({ ticket_id: id, subject: "Checkout down", customer_type: "retainer", previous_percentage: null, last_poster_type: "User", last_poster_name: "Ann Lee" });
    expect(sent.body).toEqual([expect.objectContaining({ poster_type: "User", entry_label: "Message", is_internal: false, message: "Since 9am no customer can pay." })]);
    expect(gemini.calls[0]!.model).toBe("gemini-2.5-flash");
  });

  it("reads the first 64 K characters of an entry, at once however large it is (docs/security.md)", async () => {
    const id = newTicketId();
    // About 1 MB: one line of spaces between the first sentence and a last one the analysis does not reach.
    await postSignal(api, entrySignal(id, "M", `The shop is slow. ${" ".repeat(1_000_000)}Checkout is down!`));
    await analysed(id, 1);
    const sent = JSON.parse(gemini.calls[0]!.body.contents![0]!.parts![0]!.text!) as { body: { message: string }[] };
    // Compared by length and start: a diff of a megabyte-long message would take the test runner minutes.
    expect(sent.body.map(({ message }) => ({ length: message.length, start: message.slice(0, 40) }))).toEqual([{ length: 17, start: "The shop is slow." }]);
  });

  it("keeps the previous percentage when staff posted last and the new one is higher, and not otherwise", async () => {
    const id = newTicketId();
    await postSignal(api, entrySignal(id, "M", "The shop is slow."));
    await analysed(id, 1);
    gemini.respond = () => analysisAnswer(85);
    await postSignal(api, entrySignal(id, "R", "We are looking into it."));
    await analysed(id, 2);
    gemini.respond = () => analysisAnswer(30);
    await postSignal(api, entrySignal(id, "N", "Cache cleared, faster now."));
    await analysed(id, 3);
    gemini.respond = () => analysisAnswer(85);
    await postSignal(api, entrySignal(id, "M", "Now checkout is down completely!"));
    await analysed(id, 4);
    expect((await snapshots(id)).map((row) => [row.urgency_percentage, row.urgency])).toEqual([
      [40, "MEDIUM"],
      [40, "MEDIUM"],
      [30, "MEDIUM"],
      [85, "CRITICAL"],
    ]);
    const detail = (await ticket(id)).body;
    expect(detail).toMatchObject({ ai_urgency: "CRITICAL", ai_urgency_percentage: 85 });
    expect(detail.history.filter((row) => row.event === "analysis").map((row) => row.detail?.capped)).toEqual([false, false, true, false]);
  });

  it("follows the urgency chain of the configured model (spec 2, 4.7 rule 3)", async () => {
    await resetOptions({ ai_urgency_model: "gemini-2.5-pro" });
    // The worker process sees an option change within twice OPTIONS_CACHE_MS.
    await new Promise((resolve) => setTimeout(resolve, 2 * OPTIONS_CACHE_MS + 100));
    gemini.script({ fault: 503 }, { fault: 503 }, { fault: 503 }, { fault: 503 }, { fault: 503 }, { fault: 503 });
    const id = newTicketId();
    await postSignal(api, entrySignal(id, "M", "The shop is slow."));
    await analysed(id, 1);
    await resetOptions();
    expect([...new Set(gemini.calls.map((call) => call.model))]).toEqual(["gemini-2.5-pro", "gemini-2.5-flash", "gemini-3-flash-preview"]);
    expect((await snapshots(id))[0]!.model_used).toBe("gemini-3-flash-preview");
  });
});

/** Reads a server-sent event stream until `done` holds for what arrived, then cancels it. */
async function readStream(url: string, headers: Record<string, string>, done: (text: string) => boolean, timeoutMs = 20_000): Promise<string> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const res = await fetch(url, { headers, signal: controller.signal });
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (!done(text)) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return text;
}

describe("CRITICAL alerts (spec 2, 6)", () => {
  // A department of its own: other test files sharing this database add managers to department 2.
  const department = newTicketId();
  const directory = [
    { id: 9, name: "Sam Staff", email: "sam@agency.example", phone: "+15550000009", department_id: department },
    { id: 4, name: "Dana Head", email: "dana@agency.example", phone: "+15550000004", department_id: department, is_department_manager: true },
    { id: 5, name: "Pat Manager", email: "pat@agency.example", phone: "+15550000005", department_id: department, is_project_manager: true },
    { id: 6, name: "Other Manager", email: "other@agency.example", phone: "+15550000006", department_id: department + 1, is_project_manager: true },
  ];
  const inDepartment = (body: ReturnType<typeof entrySignal>) => ({ ...body, ticket: { ...body.ticket, department: { id: department, name: "Support", manager_staff_id: 4 } } });

  it("e-mails, texts and notifies the assigned staff, project managers and department manager once per ticket, however often it is analysed or the job runs", async () => {
    for (const member of directory) expect((await postSignal(api, { signal: "staff.updated", staff: member })).status).toBe(200);
    expect((await postSignal(api, { signal: "staff.updated", staff: directory[0] })).body).toMatchObject({ changed: false });
    const user = await createUser(api.ctx, { login: uniqueLogin("sam"), capabilities: ["staff"], staffId: 9 });
    const stream = readStream(`${api.url}/scp/ajax.php/notifications/stream`, { authorization: basicAuth(user.login, user.application_password) }, (text) => text.includes("event: notification"));

    gemini.respond = () => analysisAnswer(90);
    const id = newTicketId();
    const number = numberOf(id);
    await postSignal(api, inDepartment(entrySignal(id, "M", "The shop was hacked, customers see a fake payment page!")));
    const mails = () => smtp.messages.filter((mail) => mail.subject.includes(`#${number}`));
    const texts = () => sms.sent.filter((text) => text.body.includes(`#${number}`));
    const notes = () => api.ctx.prisma.staffNotification.findMany({ where: { ticket_id: id } });
    await until(async () => mails().length === 1 && texts().length === 3 && (await notes()).length === 3, () => `the alerts (worker output:\n${worker.output().slice(-2000)})`);

    const [mail] = mails();
    expect(mail!.subject).toBe(`[CRITICAL] Ticket #${number}: Checkout returns 500 for all customers`);
    expect(mail!.to.sort()).toEqual(["dana@agency.example", "pat@agency.example", "sam@agency.example"]);
    expect(mail!.text).toContain("Urgency: 90%");
    expect(mail!.text).toContain("Estimated hours: 3.5 h");
    expect(mail!.text).toContain("Checkout fails for every customer.");
    expect(texts().map((text) => text.to).sort()).toEqual(["+15550000004", "+15550000005", "+15550000009"]);
    expect((await notes()).map((note) => note.staff_id).sort()).toEqual([4, 5, 9]);
    const events = await stream;
    expect(events).toMatch(new RegExp(`event: notification\\ndata: .*"title":"CRITICAL: ticket #${number}"`));

    await postSignal(api, inDepartment(entrySignal(id, "M", "Still broken!")));
    await analysed(id, 2);
    const rerun = await api.ctx.queues.add(criticalAlertJob, { ticket_id: id, channel: "sms" }, { jobId: `rerun-${id}` });
    await until(async () => (await rerun.getState()) === "completed", () => "the re-run alert job");
    expect((await api.ctx.queues.get("notifications").getJob(rerun.id!))!.returnvalue).toEqual({ skipped: "already_sent" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect([mails().length, texts().length, (await notes()).length]).toEqual([1, 3, 3]);
    const history = (await ticket(id)).body.history.filter((row) => row.event === "critical_alert");
    expect(history.map((row) => row.channel).sort()).toEqual(["browser", "email", "sms"]);
    expect(history.every((row) => row.sent_at !== null)).toBe(true);
  });
});

describe("read side (spec 2, 4.7.5; design 10.3)", () => {
  async function get(path: string, authorization: string | null = staff) {
    const res = await fetch(`${api.url}/tickets/v1/${path}`, { headers: authorization ? { authorization } : {} });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it("lists snapshots newest first, filtered by ticket number, level and dates, paginated; for staff and administrators only", async () => {
    const id = newTicketId();
    const number = numberOf(id);
    await postSignal(api, entrySignal(id, "M", "The shop is slow."));
    await analysed(id, 1);
    gemini.respond = () => analysisAnswer(80);
    await postSignal(api, entrySignal(id, "M", "Now it is down."));
    await analysed(id, 2);

    const all = await get(`snapshots?ticket_number=${number}`);
    expect(all.body).toMatchObject({ total: 2, page: 1, per_page: 20, total_pages: 1 });
    expect((all.body.snapshots as { urgency: string; ticket_number: string }[]).map((row) => [row.ticket_number, row.urgency])).toEqual([
      [number, "CRITICAL"],
      [number, "MEDIUM"],
    ]);
    expect((await get(`snapshots?ticket_number=${number}&level=MEDIUM`)).body).toMatchObject({ total: 1 });
    expect((await get(`snapshots?ticket_number=${number}&per_page=1&page=2`)).body).toMatchObject({ total: 2, total_pages: 2, snapshots: [{ urgency: "MEDIUM" }] });
    expect((await get(`snapshots?ticket_number=${number}&from=2099-01-01T00:00:00Z`)).body).toMatchObject({ total: 0, snapshots: [] });
    expect((await get("snapshots?ticket_number=nope")).body).toMatchObject({ total: 0 });
    const badLevel = await get("snapshots?level=URGENT");
    expect(badLevel.status).toBe(400);
    expect(badLevel.body).toMatchObject({ code: "invalid_params" });
    expect(String(badLevel.body.message)).toMatch(/^level: /);

    expect((await get("snapshots", null)).status).toBe(403);
    const operator = await createUser(api.ctx, { login: uniqueLogin("operator"), capabilities: ["manage_middleware"] });
    expect((await get("snapshots", basicAuth(operator.login, operator.application_password))).status).toBe(403);
    const admin = await createUser(api.ctx, { login: uniqueLogin("admin"), capabilities: ["manage_options"] });
    expect((await get(`tickets/${number}`, basicAuth(admin.login, admin.application_password))).status).toBe(200);
    expect(await get("tickets/999999999")).toMatchObject({ status: 404, body: { code: "rest_not_found" } });
  });

  it("totals snapshots by level and time, whole days and parts of days, through inserts, level and date changes, deletes, plain SQL and retention, from ai_snapshot_counts", async () => {
    const { prisma } = api.ctx;
    const DAY = 86_400_000;
    // Days of this run's own, long past: no other file's snapshots fall on them.
    const day = new Date(Date.UTC(2001, 0, 1) + (process.pid % 3000) * DAY);
    const at = (days: number) => new Date(day.getTime() + days * DAY).toISOString();
    const total = async (query: string) => {
      const res = await get(`snapshots?${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.total;
    };
    const [ticketA, ticketB] = [newTicketId(), newTicketId()];
    const snapshot = (ticket_id: number, created: string, urgency: string) =>
      prisma.aiSnapshot.create({ data: { ticket_id, urgency, urgency_percentage: 50, estimated_hours: 1, summary: "", timeline: "", suggested_title: "", model_used: "rules", created }, select: { id: true } });
    const early = await snapshot(ticketA, at(0.25), "LOW");
    await snapshot(ticketA, at(0.5), "HIGH");
    const late = await snapshot(ticketA, at(0.99), "HIGH");
    await snapshot(ticketB, at(1.1), "CRITICAL");
    await snapshot(ticketB, at(1.6), "LOW");

    const wholeDay = `from=${at(0)}&to=${at(1 - 1 / DAY)}`;
    const acrossMidnight = `from=${at(0.4)}&to=${at(1.2)}`;
    const dayAndParts = `from=${at(-0.5)}&to=${at(1.5)}`;
    expect(await total(wholeDay)).toBe(3);
    expect(await total(`${wholeDay}&level=HIGH`)).toBe(2);
    expect(await total(acrossMidnight)).toBe(3);
    expect(await total(`${acrossMidnight}&level=HIGH`)).toBe(2);
    expect(await total(dayAndParts)).toBe(4);
    expect(await total(`from=${at(0.25)}&to=${at(0.5)}`)).toBe(2);
    expect(await total(`to=${at(0.3)}`)).toBe(1);
    expect(await total(`from=${at(1)}&to=${at(0.5)}`)).toBe(0);

    // The kept counts are what answers: a count written beside the rows shows in the total.
    const ymd = at(0).slice(0, 10);
    await prisma.$executeRaw`INSERT INTO ai_snapshot_counts (day, urgency, slot, snapshots) VALUES (${ymd}, 'MEDIUM', 0, 5) ON DUPLICATE KEY UPDATE snapshots = snapshots + 5`;
    expect(await total(wholeDay)).toBe(8);
    expect(await total(`${wholeDay}&level=MEDIUM`)).toBe(5);
    await prisma.$executeRaw`UPDATE ai_snapshot_counts SET snapshots = snapshots - 5 WHERE day = ${ymd} AND urgency = 'MEDIUM' AND slot = 0`;

    await prisma.aiSnapshot.update({ where: { id: early.id }, data: { urgency: "CRITICAL" } });
    expect(await total(`${wholeDay}&level=LOW`)).toBe(0);
    expect(await total(`${wholeDay}&level=CRITICAL`)).toBe(1);
    await prisma.aiSnapshot.update({ where: { id: late.id }, data: { created: at(1.05) } });
    expect(await total(wholeDay)).toBe(2);
    expect(await total(`${dayAndParts}&level=HIGH`)).toBe(2);
    await prisma.aiSnapshot.delete({ where: { id: late.id } });
    expect(await total(dayAndParts)).toBe(3);
    await prisma.$executeRaw`INSERT INTO ai_snapshots (ticket_id, urgency, urgency_percentage, estimated_hours, summary, timeline, suggested_title, model_used, created)
      VALUES (${ticketB}, 'LOW', 10, 1, '', '', '', 'rules', ${at(1.7).slice(0, 23).replace("T", " ")})`;
    expect(await total(`from=${at(1)}&to=${at(2 - 1 / DAY)}&level=LOW`)).toBe(2);

    // Retention keeps each ticket's newest snapshot and deletes the others, in batches.
    const days = Math.floor((Date.now() - day.getTime()) / DAY) - 3;
    await purgeUrgencyHistory({ prisma, config: { ...api.ctx.config, RETENTION_SNAPSHOTS_DAYS: days, RETENTION_BATCH_SIZE: 1 }, log: api.ctx.logger });
    expect(await total(dayAndParts)).toBe(1);
    expect(await total(`from=${at(0)}&to=${at(2)}`)).toBe(2);
    expect(await total(`from=${at(0)}&to=${at(2)}&level=LOW`)).toBe(1);
  });

  it("shows the urgency queue by state with counts", async () => {
    const queued = await get("urgency-queue?state=processed&per_page=100");
    expect(queued.status).toBe(200);
    const counts = queued.body.counts as { pending: number; processed: number; skipped: number };
    expect(counts.processed).toBeGreaterThan(0);
    expect((queued.body.entries as { state: string }[]).every((entry) => entry.state === "processed")).toBe(true);
    expect((await get("urgency-queue?state=stuck")).status).toBe(400);
  });
});

describe("changes feed (design 10.8)", () => {
  interface Feed {
    changes: { cursor: number; ticket_id: number; ticket_number: string; fields: Record<string, unknown> }[];
    next_cursor: number;
  }
  async function feed(after: number, key = SECURITY_KEY): Promise<{ status: number; body: Feed }> {
    const res = await fetch(`${api.url}/tickets/v1/changes?after=${after}&limit=1000`, { headers: { "ai-security-key": key } });
    return { status: res.status, body: (await res.json()) as Feed };
  }

  it("gives each analysis's six fields, hours used and lock in order after the cursor, and nothing on the next read", async () => {
    let cursor = 0;
    for (let page = await feed(0); page.body.changes.length; page = await feed(cursor)) cursor = page.body.next_cursor;
    const id = newTicketId();
    await postSignal(api, entrySignal(id, "M", "The shop is slow."));
    await analysed(id, 1);
    gemini.respond = () => analysisAnswer(85);
    await postSignal(api, entrySignal(id, "M", "Now it is down."));
    await analysed(id, 2);
    let mine: Feed["changes"] = [];
    let next = cursor;
    await until(async () => {
      const page = await feed(cursor);
      mine = page.body.changes.filter((change) => change.ticket_id === id);
      next = page.body.next_cursor;
      return mine.length === 2;
    }, () => `two changes of ticket ${id} in the feed after ${cursor}`);
    expect(mine.map((change) => change.fields)).toEqual([
      {
        "ai-urgency": "MEDIUM",
        "ai-urgency-percentage": 40,
        "ai-estimated-hours": 3.5,
        "ticket-summary": "<p>Checkout fails for every customer.</p>",
        "ai-timeline": "<ul><li>09:00 reported</li></ul>",
        "ai-suggested-title": "Checkout returns 500 for all customers",
        "hours-used": 0,
        locked: false,
      },
      expect.objectContaining({ "ai-urgency": "CRITICAL", "ai-urgency-percentage": 85 }),
    ]);
    expect(mine[0]!.ticket_number).toBe(numberOf(id));
    expect(mine[0]!.cursor).toBeLessThan(mine[1]!.cursor);
    expect((await feed(next)).body.changes.filter((change) => change.ticket_id === id)).toEqual([]);
    expect((await feed(next, "wrong")).status).toBe(401);
  });
});

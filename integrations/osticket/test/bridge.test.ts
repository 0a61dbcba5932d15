import { OPTIONS } from "@mw/domains/options";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGemini } from "../../../test/fakes/gemini.ts";
import { FakeHarvest } from "../../../test/fakes/harvest.ts";
import { closedPort, startApi, type TestApi } from "../../../test/support/api.ts";
import { logged, spawnEntry, type Spawned } from "../../../test/support/processes.ts";
import { analysisAnswer, SECURITY_KEY } from "../../../test/support/tickets.ts";
import { enableTimeTracking, TIME_OPTIONS } from "../../../test/support/timetracking.ts";
import { until } from "../../../test/support/wait.ts";
import { ADMIN, Agent, OsTicket, requirePhp } from "./osticket.ts";

// Issue 22, "What it must show": a real osTicket 1.18 with the plugin, the real platform (API and worker processes),
// and osTicket driven only through its own interfaces (its API, the agent web UI, its cron).
const PROVIDER_KEY = "AIzaFAKE-osticket-key-7d21";
const ADMIN_STAFF_ID = 1;
/** Tickets osTicket holds before the plugin comes (seed-history.php), for the backfill. */
const HISTORY = 200;
/** The send timeout the tests configure: a request that waited for a send would take at least this long. */
const SEND_TIMEOUT_MS = 5_000;
/** The staff pages' timeout the tests leave at its default (configure.php --staff-timeout). */
const STAFF_TIMEOUT_MS = 3_000;
/** osTicket's API ticket creation as the client measured it, per platform state (printed at the end, for the README). */
const figures: Record<"up" | "hung" | "down", number[]> = { up: [], hung: [], down: [] };
let history: Awaited<ReturnType<OsTicket["seedHistory"]>>;
let configured: string;
let desk: OsTicket;
let agent: Agent;
let gemini: FakeGemini;
let harvest: FakeHarvest;
let api: TestApi;
let platform: Spawned;
let worker: Spawned;
let platformPort: number;
let env: Record<string, string>;

async function startPlatform(): Promise<void> {
  platform = spawnEntry("packages/api/src/main.ts", [], { ...env, PORT: String(platformPort), HOST: "127.0.0.1" });
  await platform.waitFor(logged("api listening"), 180_000);
  // Its first answers (connections opened, options read) can take seconds on a busy machine: the tests' cron runs must not meet those.
  const changes = `http://127.0.0.1:${platformPort}/tickets/v1/changes?after=0&limit=1`;
  await until(async () => (await fetch(changes, { headers: { "ai-security-key": SECURITY_KEY }, signal: AbortSignal.timeout(30_000) }).catch(() => null))?.status === 200, () => "the platform's first answer", 120_000);
}

async function stopPlatform(): Promise<void> {
  platform.child.kill("SIGKILL");
  await platform.exited();
}

const snapshots = (ticketId: number) => api.ctx.prisma.aiSnapshot.findMany({ where: { ticket_id: ticketId }, orderBy: { id: "asc" } });

/** The changes feed holds back changes younger than 2 s (docs/ticket-bridge.md): cron after that sees them. */
async function cronAfterFeedDelay(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  await desk.cron();
}

beforeAll(async () => {
  await requirePhp();
  [gemini, harvest] = await Promise.all([new FakeGemini(PROVIDER_KEY).start(), new FakeHarvest().start()]);
  gemini.respond = () => analysisAnswer(40);
  env = { AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY, AI_RETRY_BASE_MS: "10", HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url };
  api = await startApi(env);
  await api.ctx.options.set({ ai_security_key: SECURITY_KEY, urgency_gate_seconds: 0, urgency_max_per_run: 1000 });
  await enableTimeTracking(api, harvest);
  await api.ctx.queues.get("urgency").obliterate({ force: true });
  platformPort = await closedPort();
  desk = new OsTicket();
  worker = spawnEntry("packages/worker/src/main.ts", [], { ...env, WORKER_QUEUES: "urgency" });
  await Promise.all([desk.install(), startPlatform(), worker.waitFor(logged("workers started"), 180_000)]);
  history = await desk.seedHistory(HISTORY);
  configured = await desk.configure(`http://127.0.0.1:${platformPort}`, SECURITY_KEY, ["--timeout", String(SEND_TIMEOUT_MS / 1000), "--pause", "60"]);
  expect(configured).toMatch(/Platform bridge installed/);
  agent = new Agent(desk);
  await agent.login();
}, 600_000);

afterAll(async () => {
  console.info(`osTicket API ticket creation, ms (platform up / hung by SIGSTOP / down): ${JSON.stringify(Object.fromEntries(Object.entries(figures).map(([state, ms]) => [state, ms.map(Math.round)])))}`);
  for (const proc of [platform, worker]) proc?.child.kill("SIGKILL");
  await desk?.stop();
  await api?.ctx.options.set({ ...Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])), ...Object.fromEntries(TIME_OPTIONS.map((name) => [name, null])) });
  await api?.close();
  await Promise.all([gemini?.stop(), harvest?.stop()]);
}, 60_000);

/** The outbox rows after `last`, as the tests compare them. */
const outboxAfter = (last: number) =>
  desk.query<{ kind: string; attempts: number; status: number | null; sent: number }[]>("SELECT kind, attempts, status, sent_at IS NOT NULL AS sent FROM ost_platform_outbox WHERE id > ? ORDER BY id", [last]);

async function lastOutboxId(): Promise<number> {
  const [{ last }] = await desk.query<[{ last: number }]>("SELECT COALESCE(MAX(id), 0) AS last FROM ost_platform_outbox");
  return last;
}

const unixNow = () => Math.floor(Date.now() / 1000);

describe("osTicket with the platform bridge", () => {
  let ticketId: number;

  it("puts the agents osTicket had before configure.php in the staff directory right after it (not the inactive one)", async () => {
    expect(configured).toMatch(/staff: 3 active agents sent/);
    const { pia, max, old } = history.agents;
    const staff = await api.ctx.prisma.staff.findMany({ where: { id: { in: [ADMIN_STAFF_ID, pia, max, old] } }, orderBy: { id: "asc" } });
    expect(staff.map((row) => [row.id, row.name, row.email, row.is_project_manager, row.is_department_manager])).toEqual([
      [ADMIN_STAFF_ID, "Ada Admin", ADMIN.email, false, false],
      [pia, "Pia Planner", "pia@desk.example", true, false],
      [max, "Max Manager", "max@desk.example", false, true],
    ]);
    // The history is not sent unless asked for.
    expect(await api.ctx.prisma.ticket.count({ where: { number: { in: history.tickets } } })).toBe(0);
  }, 30_000);

  it("--sync --backfill-days 30 sends the tickets updated in the last 30 days with their entries, in batches, queuing no analysis; a second run changes nothing", async () => {
    const [oldest, ...recent] = history.tickets;
    await desk.query("UPDATE ost_ticket SET updated = NOW() - INTERVAL 40 DAY WHERE number = ?", [oldest]);
    const outboxBefore = await lastOutboxId();
    const started = performance.now();
    const output = await desk.sync(["--backfill-days", "30"]);
    const seconds = (performance.now() - started) / 1000;
    const notes = HISTORY / 10;
    expect(output.trim().split("\n")).toEqual([
      "staff: 3 active agents sent",
      "backfill: 50 of 199 tickets sent (55 signals)",
      "backfill: 100 of 199 tickets sent (110 signals)",
      "backfill: 150 of 199 tickets sent (165 signals)",
      `backfill: 199 of 199 tickets sent (${199 + notes} signals)`,
    ]);
    console.info(`backfill of 199 tickets (${199 + notes} signals): ${seconds.toFixed(1)} s`);
    const tickets = await api.ctx.prisma.ticket.findMany({ where: { number: { in: history.tickets } }, select: { id: true, number: true } });
    expect(tickets.map((row) => row.number).sort()).toEqual([...recent].sort());
    const ids = tickets.map((row) => row.id);
    const count = () => Promise.all([api.ctx.prisma.ticketEntry.count({ where: { ticket_id: { in: ids } } }), api.ctx.prisma.ticketEntry.count({ where: { ticket_id: { in: ids }, type: "N", staff_id: history.agents.pia } })]);
    expect(await count()).toEqual([199 + notes, notes]);
    // History: no urgency analysis owed or queued for any of them.
    expect(await api.ctx.prisma.urgencyQueueEntry.count({ where: { ticket_id: { in: ids } } })).toBe(0);
    expect(await api.ctx.queues.get("urgency").getJobCountByTypes("waiting", "delayed", "active", "prioritized")).toBe(0);
    // Reading the tickets to send them is no change of theirs: nothing went to the outbox.
    expect(await lastOutboxId()).toBe(outboxBefore);

    expect((await desk.sync(["--backfill-days", "30"])).trim().split("\n").at(-1)).toBe(`backfill: 199 of 199 tickets sent (${199 + notes} signals)`);
    expect(await count()).toEqual([199 + notes, notes]);
    expect(await api.ctx.prisma.ticket.count({ where: { number: { in: history.tickets } } })).toBe(199);
    expect(await api.ctx.prisma.urgencyQueueEntry.count({ where: { ticket_id: { in: ids } } })).toBe(0);
  }, 900_000);

  it("forwards a ticket created with osTicket's API; after one cron run its AI fields are set in osTicket", async () => {
    const created = await desk.createTicket({ subject: "Checkout down", message: "Since 9am no customer can pay.", budget_hours: "10" });
    expect(created.status).toBe(201);
    figures.up.push(created.ms);
    ticketId = await desk.ticketId(created.number);
    await until(async () => (await snapshots(ticketId)).length === 1, () => `a snapshot of ticket ${ticketId}; worker:\n${worker.output().slice(-2000)}`, 30_000);
    const mirrored = await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId }, include: { entries: true } });
    expect(mirrored).toMatchObject({ number: created.number, subject: "Checkout down", client_name: "Ann Lee", client_email: "ann@acme.example" });
    expect(Number(mirrored.budget_hours)).toBe(10);
    expect(mirrored.entries.map((entry) => [entry.type, entry.poster_type])).toEqual([["M", "User"]]);

    expect(await agent.field(ticketId, "AI urgency (LOW / MEDIUM / HIGH / CRITICAL)")).toBe("");
    await cronAfterFeedDelay();
    expect(await agent.field(ticketId, "AI urgency (LOW / MEDIUM / HIGH / CRITICAL)")).toBe("MEDIUM");
    expect(await agent.field(ticketId, "AI urgency percentage (0-100)")).toBe("40");
    expect(await agent.field(ticketId, "AI estimated hours")).toBe("3.5");
    expect(await agent.field(ticketId, "AI suggested title")).toBe("Checkout returns 500 for all customers");
  }, 90_000);

  it("sends an agent's reply through the web UI as an R entry by Staff; the cap rule keeps the urgency", async () => {
    gemini.respond = () => analysisAnswer(90);
    await agent.reply(ticketId, "We are on it: the payment gateway is being restarted.");
    await until(async () => (await snapshots(ticketId)).length === 2, () => `a second snapshot of ticket ${ticketId}; worker:\n${worker.output().slice(-2000)}`, 30_000);
    const entries = await api.ctx.prisma.ticketEntry.findMany({ where: { ticket_id: ticketId }, orderBy: { id: "asc" } });
    expect(entries.map((entry) => [entry.type, entry.poster_type, entry.staff_id])).toEqual([
      ["M", "User", null],
      ["R", "Staff", ADMIN_STAFF_ID],
    ]);
    // The model said 90 after a staff response; the stored 40 stays (spec 2, 3).
    expect((await snapshots(ticketId)).at(-1)?.urgency_percentage).toBe(40);
    await cronAfterFeedDelay();
    expect(await agent.field(ticketId, "AI urgency percentage (0-100)")).toBe("40");
  }, 90_000);

  it("sends a status change made in the agent UI as ticket.updated", async () => {
    const [closed] = await desk.query<{ id: number }[]>("SELECT id FROM ost_ticket_status WHERE state = 'closed' ORDER BY id LIMIT 1");
    await agent.page(`/scp/tickets.php?id=${ticketId}`);
    const answer = await agent.post(`/scp/ajax.php/tickets/${ticketId}/status`, { status_id: String(closed!.id), comments: "" });
    expect(answer.status).toBeLessThan(300);
    await until(async () => (await api.ctx.prisma.ticket.findUniqueOrThrow({ where: { id: ticketId } })).status === "closed", () => `ticket ${ticketId} closed at the platform`, 10_000);
    // The request sent it after its answer: the row is marked when the platform's answer is in.
    const last = async () => (await desk.query<{ kind: string; status: number | null }[]>("SELECT kind, status FROM ost_platform_outbox ORDER BY id DESC LIMIT 1"))[0];
    await until(async () => (await last())?.status !== null, () => "the outbox row marked", 10_000);
    expect(await last()).toEqual({ kind: "ticket.updated", status: 200 });
  }, 30_000);

  it("with the platform down, answers at once; the first failed try opens the breaker and the next request leaves its signals to cron; nothing lost or doubled", async () => {
    const last = await lastOutboxId();
    await stopPlatform();
    const numbers: string[] = [];
    try {
      for (const subject of ["Refunds stuck", "Invoice PDF empty"]) {
        const created = await desk.createTicket({ subject, message: `${subject} since this morning.` });
        expect(created.status).toBe(201);
        figures.down.push(created.ms);
        expect(created.ms).toBeLessThan(SEND_TIMEOUT_MS);
        numbers.push(created.number);
        // The first request tries after its answer; its refused connection opens the breaker (written just after the row).
        await until(async () => (await outboxAfter(last))[0]?.attempts === 1 && (await desk.breakerOpenUntil()) > unixNow(), () => "the first request's try and the breaker", 10_000);
      }
      expect(await desk.breakerOpenUntil()).toBeGreaterThan(unixNow());
    } finally {
      await startPlatform();
    }
    const ids = await Promise.all(numbers.map((number) => desk.ticketId(number)));
    expect(await api.ctx.prisma.ticket.count({ where: { id: { in: ids } } })).toBe(0);
    expect(await outboxAfter(last)).toEqual([
      { kind: "ticket.created", attempts: 1, status: 0, sent: 0 },
      { kind: "threadentry.created", attempts: 0, status: null, sent: 0 },
      // The breaker was open: this request did not try at all.
      { kind: "ticket.created", attempts: 0, status: null, sent: 0 },
      { kind: "threadentry.created", attempts: 0, status: null, sent: 0 },
    ]);

    await desk.cron();
    // 202 for each entry: the platform took it as new (a second delivery would have answered 200, already known).
    const delivered = [
      { kind: "ticket.created", attempts: 2, status: 200, sent: 1 },
      { kind: "threadentry.created", attempts: 1, status: 202, sent: 1 },
      { kind: "ticket.created", attempts: 1, status: 200, sent: 1 },
      { kind: "threadentry.created", attempts: 1, status: 202, sent: 1 },
    ];
    expect(await outboxAfter(last)).toEqual(delivered);
    // Cron reached the platform: requests send again.
    expect(await desk.breakerOpenUntil()).toBe(0);
    await desk.cron();
    expect(await outboxAfter(last)).toEqual(delivered);
    const entries = await api.ctx.prisma.ticketEntry.findMany({ where: { ticket_id: { in: ids } } });
    expect(entries.map((entry) => entry.ticket_id).sort()).toEqual([...ids].sort());
  }, 400_000);

  it("with the platform hung (SIGSTOP), answers before the send, the first ticket included; the breaker spares the next ones; on resume nothing is lost or doubled", async () => {
    const last = await lastOutboxId();
    const numbers: string[] = [];
    expect(await desk.breakerOpenUntil()).toBe(0);
    platform.child.kill("SIGSTOP");
    try {
      for (const subject of ["Search shows nothing", "Coupons ignored", "Stock counts wrong"]) {
        const created = await desk.createTicket({ subject, message: `${subject} since the update.` });
        expect(created.status).toBe(201);
        figures.hung.push(created.ms);
        // Shorter than the send timeout: the client never waited for the send.
        expect(created.ms).toBeLessThan(SEND_TIMEOUT_MS);
        numbers.push(created.number);
        if (numbers.length === 1) {
          // The first request tried after its answer, until the send timeout; that opened the breaker (written just after the row).
          await until(async () => (await outboxAfter(last))[0]?.attempts === 1 && (await desk.breakerOpenUntil()) > unixNow(), () => "the first request's try to end and open the breaker", SEND_TIMEOUT_MS + 15_000);
        }
      }
      const [timedOut] = await desk.query<{ last_error: string }[]>("SELECT last_error FROM ost_platform_outbox WHERE id > ? ORDER BY id LIMIT 1", [last]);
      expect(timedOut!.last_error).toMatch(/timed out/i);
      expect(await outboxAfter(last)).toEqual([
        { kind: "ticket.created", attempts: 1, status: 0, sent: 0 },
        ...Array.from({ length: 5 }, (_, i) => ({ kind: i % 2 ? "ticket.created" : "threadentry.created", attempts: 0, status: null, sent: 0 })),
      ]);
    } finally {
      platform.child.kill("SIGCONT");
    }
    // Resumed, the platform also takes the request that was waiting in its socket: cron's delivery of it is a repeat, which changes nothing.
    await desk.cron();
    const rows = await outboxAfter(last);
    expect(rows.map((row) => [row.kind, row.sent])).toEqual(["ticket.created", "threadentry.created", "ticket.created", "threadentry.created", "ticket.created", "threadentry.created"].map((kind) => [kind, 1]));
    expect(rows.filter((row) => row.kind === "threadentry.created").map((row) => row.status)).toEqual([202, 202, 202]);
    expect(await desk.breakerOpenUntil()).toBe(0);
    const ids = await Promise.all(numbers.map((number) => desk.ticketId(number)));
    const entries = await api.ctx.prisma.ticketEntry.findMany({ where: { ticket_id: { in: ids } } });
    expect(entries.map((entry) => entry.ticket_id).sort()).toEqual([...ids].sort());
  }, 120_000);

  it("after the pause the next request tries again (half-open) and, answered, closes the breaker", async () => {
    const last = await lastOutboxId();
    await desk.setBreakerOpenUntil(unixNow() - 1);
    const created = await desk.createTicket({ subject: "Emails bounce", message: "Order e-mails bounce since Monday." });
    expect(created.status).toBe(201);
    figures.up.push(created.ms);
    await until(async () => (await outboxAfter(last)).every((row) => row.sent === 1), () => "the request's own delivery", 10_000);
    expect(await outboxAfter(last)).toEqual([
      { kind: "ticket.created", attempts: 1, status: 200, sent: 1 },
      { kind: "threadentry.created", attempts: 1, status: 202, sent: 1 },
    ]);
    expect(await desk.breakerOpenUntil()).toBe(0);
  }, 60_000);

  it("with the platform hung (SIGSTOP), a staff request gives up after the staff timeout; then 20 at once answer in under 1 s each that the platform is not answering, and osTicket's own pages stay quick", async () => {
    /** A staff AJAX call as staff.js makes it, timed from the browser's side. */
    const staffCall = async (path: string) => {
      const started = performance.now();
      const res = await agent.request(`/scp/ajax.php${path}`, { headers: { "x-requested-with": "XMLHttpRequest" } });
      const body = (await res.json()) as { success: boolean; data: unknown };
      return { status: res.status, body, ms: performance.now() - started };
    };
    expect(await desk.breakerOpenUntil()).toBe(0);
    platform.child.kill("SIGSTOP");
    try {
      // The bell's poll: the platform accepts the connection (the kernel does) but never answers.
      const first = await staffCall("/notifications");
      expect(first.ms).toBeGreaterThanOrEqual(STAFF_TIMEOUT_MS - 100);
      expect(first.ms).toBeLessThan(STAFF_TIMEOUT_MS + 3_000);
      expect(first).toMatchObject({ status: 504, body: { success: false, data: expect.stringMatching(/^The platform is not answering \(Operation timed out after \d+ milliseconds/) } });
      expect(await desk.breakerOpenUntil()).toBeGreaterThan(unixNow());

      // Every tab's bell, the snapshots, the time panel and the assistant at once: none waits for the platform.
      const paths = ["/notifications", "/urgency/snapshots", "/timetracking/status", "/ai-assistant/conversations"];
      const burst = await Promise.all(Array.from({ length: 20 }, (_, i) => staffCall(paths[i % paths.length]!)));
      for (const answer of burst) {
        expect(answer).toMatchObject({ status: 503, body: { success: false, data: expect.stringMatching(/^The platform is not answering: staff pages ask it again in \d+ s\.$/) } });
        expect(answer.ms).toBeLessThan(1_000);
      }
      const script = await agent.request("/scp/ajax.php/platform-bridge/time-panel.js");
      expect(script.status).toBe(502);
      expect(await script.text()).toContain("could not be loaded");
      // The PHP workers are free: osTicket's own pages answer as usual.
      const started = performance.now();
      const page = await agent.request("/scp/tickets.php");
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("</html>");
      expect(performance.now() - started).toBeLessThan(2_000);
    } finally {
      platform.child.kill("SIGCONT");
    }
    // After the pause, the next staff request tries (half-open) and, answered, closes the breaker for signals too.
    await desk.setBreakerOpenUntil(unixNow() - 1);
    expect(await staffCall("/timetracking/status")).toMatchObject({ status: 200, body: { success: true } });
    expect(await desk.breakerOpenUntil()).toBe(0);
  }, 180_000);

  it("forwards a staff member edited in osTicket to the staff directory; the agent's timetracking/status answers through osTicket", async () => {
    const profile = await agent.page("/scp/profile.php");
    expect(profile).toContain("firstname");
    const saved = await agent.post("/scp/profile.php", { id: String(ADMIN_STAFF_ID), firstname: "Ada", lastname: "Lovelace", email: "ada@desk.example", phone: "+1 555 010 0199", mobile: "", timezone: "UTC", lang: "en_US", default_signature_type: "none", default_paper_size: "Letter" });
    expect(saved.status).toBeLessThan(400);
    await until(async () => (await api.ctx.prisma.staff.findUnique({ where: { id: ADMIN_STAFF_ID } }))?.name === "Ada Lovelace", () => `staff ${ADMIN_STAFF_ID} in the directory: ${saved.html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(0, 500)}`, 10_000);
    expect(await api.ctx.prisma.staff.findUnique({ where: { id: ADMIN_STAFF_ID } })).toMatchObject({ email: "ada@desk.example", phone: "+1 555 010 0199", department_id: expect.any(Number) });

    // No platform user for this agent: the plugin's signed identity is enough.
    expect(await api.ctx.prisma.user.count({ where: { staff_id: ADMIN_STAFF_ID } })).toBe(0);
    const status = await agent.request("/scp/ajax.php/timetracking/status");
    expect(status.status).toBe(200);
    expect(await status.json()).toEqual({ success: true, data: { connected: false } });
    // Not for anyone without an osTicket session.
    expect((await fetch(`${desk.url}/scp/ajax.php/timetracking/status`)).status).toBe(403);
  }, 60_000);

  it("adds the time panel to a ticket linked to a time project, served by the plugin; time on a locked ticket is refused, naming who can unlock", async () => {
    const created = await desk.createTicket({ subject: "Shop redesign", message: "Please start the redesign.", time_project_id: "4242", budget_hours: "8" });
    const id = await desk.ticketId(created.number);
    await until(async () => (await api.ctx.prisma.ticket.findUnique({ where: { id } }))?.time_project_id === 4242, () => `ticket ${id} linked to project 4242 at the platform`, 10_000);
    const page = await agent.page(`/scp/tickets.php?id=${id}`);
    const tag = /<script src="([^"]*platform-bridge\/time-panel\.js[^"]*)" data-ticket-id="(\d+)" data-project-id="(\d+)"/.exec(page);
    expect(tag?.slice(2)).toEqual([String(id), "4242"]);
    const script = await agent.request(tag![1]!.replace(/&amp;/g, "&"));
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(await script.text()).toContain("timetracking/");
    // A ticket without a project gets no panel.
    expect(await agent.page(`/scp/tickets.php?id=${ticketId}`)).not.toContain("time-panel.js");

    await api.ctx.prisma.staff.upsert({ where: { id: 77 }, create: { id: 77, name: "Pat Manager" }, update: { name: "Pat Manager" } });
    await api.ctx.prisma.ticket.update({ where: { id }, data: { locked: true, department_manager_staff_id: 77 } });
    const refused = await agent.request("/scp/ajax.php/timetracking/timer/start", {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrftoken": agent.csrf },
      body: JSON.stringify({ ticket_id: id }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ success: false, data: `Ticket #${created.number} is over budget and locked: only its project manager, Pat Manager, can log more time or unlock it.` });
    // A posted body without osTicket's CSRF token never reaches the platform.
    const forged = await agent.request("/scp/ajax.php/timetracking/timer/start", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ticket_id: id }) });
    expect(forged.status).toBe(400);
  }, 60_000);
});

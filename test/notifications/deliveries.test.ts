import { dismissOperatorAlert, sendChatMessage } from "@mw/domains/notifications";
import { sendBudgetLockNotice, timeTimeline } from "@mw/domains/timetracking";
import { sendCriticalAlert } from "@mw/domains/urgency";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSink } from "../fakes/http-sink.ts";
import { FakeSmtp } from "../fakes/smtp.ts";
import { startApi, testConfig, type TestApi } from "../support/api.ts";
import { newTicketId } from "../support/tickets.ts";

// Issue 43, point 3: budget-lock notices, milestone and chat messages and the browser channel have an
// outcome per recipient, retried with backoff, and a recipient never reached is one operator alert.
let smtp: FakeSmtp;
let chat: HttpSink;
let api: TestApi;

beforeAll(async () => {
  [smtp, chat] = await Promise.all([new FakeSmtp().start(), new HttpSink().start()]);
  api = await startApi();
}, 60_000);

afterAll(async () => {
  await api?.close();
  await Promise.all([smtp?.stop(), chat?.stop()]);
});

class Delayed extends Error {}

/** Runs `use` as the worker runs its job: a delay (the next attempt) ends the run and is counted. */
async function attempt<T>(use: (deps: typeof api.ctx & { log: typeof api.ctx.logger; delay: (ms: number) => Promise<never> }) => Promise<T>, overrides: Record<string, string> = {}) {
  const delays: number[] = [];
  const config = testConfig({ SMTP_URL: smtp.url, CHAT_WEBHOOK_URL: `${chat.url}/hooks/ops`, ALERT_DELIVERY_ATTEMPTS: "2", ALERT_DELIVERY_BACKOFF_MS: "1000", ...overrides });
  const delay = (ms: number) => {
    delays.push(ms);
    return Promise.reject(new Delayed());
  };
  const outcome = await use({ ...api.ctx, config, log: api.ctx.logger, delay }).catch((error: unknown) => {
    if (error instanceof Delayed) return "delayed" as const;
    throw error;
  });
  return { outcome, delays };
}

/** A ticket locked over its budget, its project manager with an e-mail address: the lock's event id. */
async function lockedTicket() {
  const id = newTicketId();
  const manager = id * 10 + 3;
  await api.ctx.prisma.staff.create({ data: { id: manager, name: "Project Manager", email: `pm.${id}@agency.example` } });
  await api.ctx.prisma.ticket.create({ data: { id, number: String(id).padStart(6, "0"), subject: "Shop rebuild", status: "open", locked: true, opened_at: new Date() } });
  const event = await api.ctx.prisma.timeEvent.create({ data: { ticket_id: id, kind: "locked", hours_used: "12.00", budget: "10.00", staff_id: manager } });
  return { id, eventId: event.id, manager, email: `pm.${id}@agency.example` };
}

const alertsLike = (prefix: string) => api.ctx.prisma.operatorAlert.findMany({ where: { alert_key: { startsWith: prefix } } });

describe("a budget-lock notice", () => {
  it("an SMTP server refusing the manager: the browser notice is there once, the e-mail retried, then an operator alert naming the manager", async () => {
    const { id, eventId, manager, email } = await lockedTicket();
    smtp.refuse.add(email);
    const notice = () => attempt((deps) => sendBudgetLockNotice(deps, eventId));

    expect(await notice()).toEqual({ outcome: "delayed", delays: [1000] });
    const lockOf = async () => (await timeTimeline(api.ctx, id)).find((item) => item.type === "locked") as { notice: Record<string, { status: string; failed: Record<string, string> }> };
    // The ticket's timeline says what the notice did so far, per channel.
    expect((await lockOf()).notice).toMatchObject({ browser: { status: "sent" }, "e-mail": { status: "retrying", failed: { [email]: expect.stringContaining("User unknown") } } });
    const last = await notice();
    expect(last.delays).toEqual([]);
    expect(last.outcome).toMatchObject({ notified: manager, emailed: null, browser: { status: "sent", sent_to: [`staff ${manager}`] }, email: { status: "failed", attempts: 2 } });
    // The browser notice went on the first attempt and was not repeated by the second.
    expect(await api.ctx.prisma.staffNotification.count({ where: { staff_id: manager, ticket_id: id } })).toBe(1);

    const alerts = await alertsLike(`budget-lock.${eventId}.`);
    expect(alerts.map((alert) => [alert.alert_key, alert.status])).toEqual([[`budget-lock.${eventId}.e-mail.${email}`, "undelivered"]]);
    expect(alerts[0]!.last_error).toMatch(new RegExp(`^e-mail to ${email.replace(/\./g, "\\.")} failed: SMTP server refused the message: 550 .*User unknown`));
    expect(alerts[0]!.subject).toBe(`Undelivered: Ticket #${String(id).padStart(6, "0")} is over budget and locked`);
    expect((await lockOf()).notice).toMatchObject({ browser: { status: "sent" }, "e-mail": { status: "failed", outcome: expect.stringContaining("sent to the operators instead") } });
  }, 30_000);

  it("a manager without an e-mail address: the timeline says the e-mail was not configured and went to the operators", async () => {
    const { id, eventId, manager } = await lockedTicket();
    await api.ctx.prisma.staff.update({ where: { id: manager }, data: { email: null } });
    expect((await attempt((deps) => sendBudgetLockNotice(deps, eventId))).outcome).toMatchObject({ notified: manager, emailed: null, email: { status: "not configured" } });
    const lock = (await timeTimeline(api.ctx, id)).find((item) => item.type === "locked") as { notice: Record<string, { status: string; outcome?: string }> };
    expect(lock.notice["e-mail"]).toMatchObject({ status: "not configured", outcome: expect.stringContaining(`the project manager (staff ${manager}) has no e-mail address`) });
  }, 30_000);
});

describe("a milestone alert to the chat webhook", () => {
  it("a webhook answering 500: retried with a doubling wait, then one operator alert naming the webhook and its answer", async () => {
    const key = `milestone.${newTicketId()}.0.75`;
    chat.status = 500;
    try {
      const post = () => attempt((deps) => sendChatMessage(deps, { key, subject: "Budget milestone: 75 % reached", text: 'Project "Shop" reached 75 % of its budget.' }), { ALERT_DELIVERY_ATTEMPTS: "3" });
      expect(await post()).toEqual({ outcome: "delayed", delays: [1000] });
      expect(await post()).toEqual({ outcome: "delayed", delays: [2000] });
      const last = await post();
      expect(last.outcome).toMatchObject({ status: "failed", attempts: 3, failed: { CHAT_WEBHOOK_URL: expect.stringContaining("500") } });
      const alerts = await alertsLike(`${key}.`);
      expect(alerts.map((alert) => [alert.alert_key, alert.status, alert.subject])).toEqual([[`${key}.chat.CHAT_WEBHOOK_URL`, "undelivered", "Undelivered: Budget milestone: 75 % reached"]]);
      expect(alerts[0]!.last_error).toMatch(/^chat to CHAT_WEBHOOK_URL failed: .*500/);
    } finally {
      chat.status = 200;
    }
  }, 30_000);

  it("a webhook that recovers: posted once, nothing for the operators", async () => {
    const key = `milestone.${newTicketId()}.0.50`;
    const before = chat.requests.length;
    chat.status = 503;
    expect((await attempt((deps) => sendChatMessage(deps, { key, text: "50 % reached" }))).outcome).toBe("delayed");
    chat.status = 200;
    expect((await attempt((deps) => sendChatMessage(deps, { key, text: "50 % reached" }))).outcome).toEqual({ status: 200 });
    // A rerun of the finished job (a retry after a crash) posts nothing more.
    expect((await attempt((deps) => sendChatMessage(deps, { key, text: "50 % reached" }))).outcome).toMatchObject({ status: "sent", sent_to: ["CHAT_WEBHOOK_URL"] });
    expect(chat.requests.length - before).toBe(2);
    expect(await alertsLike(`${key}.`)).toEqual([]);
  }, 30_000);
});

describe("the browser channel of a CRITICAL alert", () => {
  it("says which staff members it reached", async () => {
    const id = newTicketId();
    const staffId = id * 10 + 1;
    await api.ctx.prisma.staff.create({ data: { id: staffId, name: "Assigned", email: `assigned.${id}@agency.example` } });
    await api.ctx.prisma.ticket.create({ data: { id, number: String(id).padStart(6, "0"), subject: "Down", status: "open", assigned_staff_id: staffId, ai_urgency: "CRITICAL", opened_at: new Date() } });
    await api.ctx.prisma.aiHistory.create({ data: { ticket_id: id, event: "critical_alert", channel: "browser" } });
    const { outcome } = await attempt((deps) => sendCriticalAlert(deps, id, "browser"));
    expect(outcome).toMatchObject({ status: "sent", sent_to: expect.arrayContaining([`staff ${staffId}`]), failed: {} });
    expect((await api.ctx.prisma.aiHistory.findFirstOrThrow({ where: { ticket_id: id, channel: "browser" } })).detail).toMatchObject({ status: "sent" });
  }, 30_000);
});

// Issue 43: an undelivered-delivery alert is raised once per delivery, channel and recipient.
describe("an undelivered delivery's operator alert", () => {
  it("is raised once, and a retried job neither sends again nor brings back one an operator dismissed", async () => {
    const { eventId, email } = await lockedTicket();
    smtp.refuse.add(email);
    const notice = () => attempt((deps) => sendBudgetLockNotice(deps, eventId), { ALERT_DELIVERY_ATTEMPTS: "1" });
    const attemptsTo = () => smtp.rcptTo.filter((rcpt) => rcpt === email).length;

    await notice();
    const [alert] = await alertsLike(`budget-lock.${eventId}.`);
    expect(alert?.status).toBe("undelivered");
    const tried = attemptsTo();

    // The same job again (BullMQ's retry after a crash, an operator's retry in Bull Board): one alert, no new attempt.
    expect((await notice()).outcome).toMatchObject({ email: { status: "failed", attempts: 1 } });
    expect(await alertsLike(`budget-lock.${eventId}.`)).toHaveLength(1);

    expect(await dismissOperatorAlert(api.ctx, alert!.id, "ops")).toBe(true);
    await notice();
    expect((await alertsLike(`budget-lock.${eventId}.`)).map((row) => row.status)).toEqual(["dismissed"]);
    expect(attemptsTo()).toBe(tried);

    // A run whose saved state is gone (it stopped between the alert and saving its outcome) tries again, and its
    // failure finds the alert already decided: it stays dismissed, still one.
    await api.ctx.redis.del(`${api.ctx.config.QUEUE_PREFIX}:delivery:budget-lock.${eventId}.e-mail`);
    await notice();
    expect(attemptsTo()).toBe(tried + 1);
    expect((await alertsLike(`budget-lock.${eventId}.`)).map((row) => row.status)).toEqual(["dismissed"]);
  }, 30_000);
});

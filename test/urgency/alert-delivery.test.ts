import { resendOperatorAlert } from "@mw/domains/notifications";
import { sendCriticalAlert, type AlertChannel } from "@mw/domains/urgency";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeSms } from "../fakes/sms.ts";
import { FakeSmtp } from "../fakes/smtp.ts";
import { startApi, testConfig, type TestApi } from "../support/api.ts";
import { newTicketId } from "../support/tickets.ts";

// Issue 43, point 3: every delivery has an outcome per recipient.
let smtp: FakeSmtp;
let sms: FakeSms;
let api: TestApi;

beforeAll(async () => {
  [smtp, sms] = await Promise.all([new FakeSmtp().start(), new FakeSms("AC-delivery", "token-delivery").start()]);
  api = await startApi();
}, 60_000);

afterAll(async () => {
  await api?.close();
  await Promise.all([smtp?.stop(), sms?.stop()]);
});

class Delayed extends Error {}

/** A CRITICAL ticket with two recipients, both with an address and a number, owing its alert on every channel. */
async function criticalTicket() {
  const id = newTicketId();
  const [first, second] = [id * 10 + 1, id * 10 + 2];
  await api.ctx.prisma.staff.createMany({
    data: [
      { id: first, name: "First Recipient", email: `first.${id}@agency.example`, phone: `+1555${String(id).slice(-7).padStart(7, "0")}` },
      { id: second, name: "Second Recipient", email: `second.${id}@agency.example`, phone: `+1556${String(id).slice(-7).padStart(7, "0")}` },
    ],
  });
  await api.ctx.prisma.ticket.create({ data: { id, number: String(id).padStart(6, "0"), subject: "Checkout is down", status: "open", assigned_staff_id: first, department_manager_staff_id: second, ai_urgency: "CRITICAL", ai_urgency_percentage: 95, opened_at: new Date() } });
  await api.ctx.prisma.aiHistory.createMany({ data: (["email", "sms", "browser"] as const).map((channel) => ({ ticket_id: id, event: "critical_alert", channel })) });
  const staff = await api.ctx.prisma.staff.findMany({ where: { id: { in: [first, second] } }, orderBy: { id: "asc" } });
  return { id, first: staff[0]!, second: staff[1]! };
}

/** Runs the alert job's use case as the worker does; a delay (the next attempt) ends the run. */
async function attempt(ticketId: number, channel: AlertChannel, overrides: Record<string, string> = {}) {
  const delays: number[] = [];
  const config = testConfig({ SMTP_URL: smtp.url, SMS_API_URL: sms.url, SMS_ACCOUNT_SID: "AC-delivery", SMS_AUTH_TOKEN: "token-delivery", SMS_FROM: "+15550001111", ALERT_DELIVERY_ATTEMPTS: "2", ALERT_DELIVERY_BACKOFF_MS: "1000", ...overrides });
  const delay = (ms: number) => {
    delays.push(ms);
    return Promise.reject(new Delayed());
  };
  const outcome = await sendCriticalAlert({ ...api.ctx, config, log: api.ctx.logger, delay }, ticketId, channel).catch((error: unknown) => {
    if (error instanceof Delayed) return "delayed" as const;
    throw error;
  });
  return { outcome, delays };
}

const historyOf = (ticketId: number, channel: AlertChannel) => api.ctx.prisma.aiHistory.findFirstOrThrow({ where: { ticket_id: ticketId, channel } });

describe("CRITICAL alert deliveries", () => {
  it("an SMTP server refusing one of two recipients: the other gets it once, the refused one ends as an operator alert naming it", async () => {
    const { id, first, second } = await criticalTicket();
    smtp.refuse.add(first.email!);
    const mailsTo = (address: string) => smtp.messages.filter((mail) => mail.to.includes(address) && mail.subject.includes(`#${String(id).padStart(6, "0")}`));

    expect(await attempt(id, "email")).toEqual({ outcome: "delayed", delays: [1000] });
    expect(mailsTo(second.email!)).toHaveLength(1);
    expect((await historyOf(id, "email")).sent_at).toBeNull();

    const last = await attempt(id, "email");
    // Other files' general managers in the staff directory are recipients too: the two this test made are what it checks.
    expect(last.outcome).toMatchObject({ status: "partly sent", sent_to: expect.arrayContaining([second.email]), attempts: 2 });
    expect((last.outcome as { sent_to: string[] }).sent_to).not.toContain(first.email);
    expect(mailsTo(second.email!)).toHaveLength(1);
    const history = await historyOf(id, "email");
    expect(history.sent_at).not.toBeNull();
    expect((history.detail as Record<string, Record<string, string>>).failed![first.email!]).toContain("User unknown");

    const alert = await api.ctx.prisma.operatorAlert.findUniqueOrThrow({ where: { alert_key: `critical-alert.${id}.e-mail.${first.email}` } });
    expect(alert.status).toBe("undelivered");
    // The last attempt went to the refused recipient alone, so the server's answer refused the whole message.
    expect(alert.last_error).toMatch(new RegExp(`^e-mail to ${first.email!.replace(/\./g, "\\.")} failed: SMTP server refused the message: 550 .*User unknown`));
    const ready = await fetch(`${api.url}/readyz`).then((res) => res.json() as Promise<{ status: string; checks: { alerts: { ok: boolean; undelivered: number } } }>);
    expect(ready.status).toBe("degraded");
    expect(ready.checks.alerts.ok).toBe(false);
    expect(ready.checks.alerts.undelivered).toBeGreaterThanOrEqual(1);
  }, 30_000);

  it("an SMS provider refusing the first of two numbers: the second gets it, and only once over the retries", async () => {
    const { id, first, second } = await criticalTicket();
    sms.refuse.add(first.phone!);
    const textsTo = (phone: string) => sms.sent.filter((text) => text.to === phone);

    expect((await attempt(id, "sms")).outcome).toBe("delayed");
    expect(textsTo(second.phone!)).toHaveLength(1);
    const last = await attempt(id, "sms");
    expect(last.outcome).toMatchObject({ status: "partly sent", sent_to: expect.arrayContaining([second.phone]) });
    expect((last.outcome as { sent_to: string[] }).sent_to).not.toContain(first.phone);
    expect(textsTo(second.phone!)).toHaveLength(1);
    const alert = await api.ctx.prisma.operatorAlert.findUniqueOrThrow({ where: { alert_key: `critical-alert.${id}.SMS.${first.phone}` } });
    expect(alert.last_error).toContain("21610 Attempt to send to unsubscribed recipient");
  }, 30_000);

  it("a channel that is not configured says so in the history, never sent", async () => {
    const { id } = await criticalTicket();
    const { outcome } = await attempt(id, "sms", { SMS_ACCOUNT_SID: "" });
    expect(outcome).toMatchObject({ status: "not configured", outcome: "not configured (sent to the operators instead)", handed_to: "operators" });
    expect((await historyOf(id, "sms")).detail).toMatchObject({ status: "not configured" });
  }, 30_000);
});

describe("an operator's resend", () => {
  it("stays on the undelivered list when queueing it fails", async () => {
    const key = `resend-test.${newTicketId()}`;
    const row = await api.ctx.prisma.operatorAlert.create({ data: { alert_key: key, subject: "Undelivered", text: "text", status: "undelivered" } });
    const downQueues = { ...api.ctx.queues, add: () => Promise.reject(new Error("Connection is closed.")) } as unknown as typeof api.ctx.queues;
    await expect(resendOperatorAlert({ prisma: api.ctx.prisma, queues: downQueues }, row.id, "ops")).rejects.toThrow("Connection is closed.");
    const after = await api.ctx.prisma.operatorAlert.findUniqueOrThrow({ where: { id: row.id } });
    expect([after.status, after.last_error]).toEqual(["undelivered", "resend could not be queued: Connection is closed."]);
  });
});

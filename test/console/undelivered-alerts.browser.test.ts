import { OPTIONS } from "@mw/domains/options";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGemini } from "../fakes/gemini.ts";
import { FakeSmtp } from "../fakes/smtp.ts";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged } from "../support/processes.ts";
import { analysisAnswer, entrySignal, newTicketId, postSignal, SECURITY_KEY, ticketBody } from "../support/tickets.ts";
import { until } from "../support/wait.ts";

// Issue 32: an alert no channel can carry is never recorded as done; /readyz and the operations page say so.
const PROVIDER_KEY = "AIzaFAKE-undelivered-alerts-83c0";
const OPERATORS = "ops@agency.example";
let gemini: FakeGemini;
let smtp: FakeSmtp;
let worker: InProcessWorker | undefined;
const ai = () => ({ AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY, AI_RETRY_BASE_MS: "10" });
// The API (and the first worker) have neither ALERT_EMAIL_TO nor CHAT_WEBHOOK_URL.
const ui = useConsole();

const resetOptions = (changes: Record<string, unknown> = {}) =>
  ui.api.ctx.options.set({ ...Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])), ai_security_key: SECURITY_KEY, urgency_gate_seconds: 0, urgency_max_per_run: 1000, ...changes });

async function startWorker(env: Record<string, string>) {
  worker = await startInProcessWorker({ ...ai(), ...env, WORKER_QUEUES: "urgency,notifications" });
  await worker.waitFor(logged("workers started"), 90_000);
}

async function stopWorker() {
  await worker?.stop();
  worker = undefined;
}

async function readiness() {
  const res = await fetch(`${ui.api.url}/readyz`);
  return { status: res.status, body: (await res.json()) as { status: string; checks: { alerts: { ok: boolean; error?: string; undelivered: number } } } };
}

beforeAll(async () => {
  [gemini, smtp] = await Promise.all([new FakeGemini(PROVIDER_KEY).start(), new FakeSmtp().start()]);
  await resetOptions();
  for (const name of ["urgency", "notifications"] as const) await ui.api.ctx.queues.get(name).obliterate({ force: true });
  // Alerts other test files of this process left undelivered are not this test's to count.
  await ui.api.ctx.prisma.operatorAlert.updateMany({ where: { status: "undelivered" }, data: { status: "dismissed" } });
}, 150_000);

afterAll(async () => {
  await stopWorker();
  await resetOptions({ ai_security_key: null, urgency_gate_seconds: null, urgency_max_per_run: null });
  await Promise.all([gemini?.stop(), smtp?.stop()]);
});

describe("alerts no channel can carry", () => {
  it("stay owed: /readyz says 'alerts: no channel', the operations page lists them, and Resend delivers once a channel is set", async () => {
    await startWorker({});
    gemini.respond = () => analysisAnswer(95);
    const id = newTicketId();
    const number = String(id).padStart(6, "0");
    const ticket = ticketBody(id, { department: { id: newTicketId(), name: "Nobody's", manager_staff_id: null }, assigned_staff_id: null });
    expect((await postSignal(ui.api, { ...entrySignal(id, "M", "Every order fails at checkout"), ticket })).status).toBeLessThan(300);
    const key = `critical-alert.${id}`;
    const alert = () => ui.api.ctx.prisma.operatorAlert.findUnique({ where: { alert_key: key } });
    await until(async () => (await alert())?.status === "undelivered", () => `the alert to be kept undelivered (worker output:\n${worker?.output().slice(-3000)})`, 30_000);
    expect((await alert())!.last_error).toBe("no channel: set ALERT_EMAIL_TO (with SMTP_URL) or CHAT_WEBHOOK_URL");

    const degraded = await readiness();
    expect(degraded.status).toBe(200);
    expect(degraded.body.status).toBe("degraded");
    expect(degraded.body.checks.alerts).toEqual({ ok: false, error: "alerts: no channel", undelivered: 1 });

    const page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["manage_middleware"]));
    await page.goto(`${ui.api.url}/console/operations`);
    const row = page.locator("#undelivered-alerts tbody tr", { hasText: key });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain(`[CRITICAL] Ticket #${number}`);
    expect(await row.textContent()).toContain("the ticket has no recipients");

    // The operator configures the e-mail fallback (the worker's .env) and resends.
    await stopWorker();
    await startWorker({ SMTP_URL: smtp.url, ALERT_EMAIL_TO: OPERATORS });
    await Promise.all([page.waitForURL(/alert=resent/), row.getByRole("button", { name: /Resend/ }).click()]);
    expect(await page.textContent("[role=status]")).toContain("Alert resent.");
    const mails = () => smtp.messages.filter((mail) => mail.subject.includes(`#${number}`));
    await until(() => mails().length === 1, () => `the resent alert (worker output:\n${worker?.output().slice(-3000)})`, 30_000);
    expect(mails()[0]!.to).toEqual([OPERATORS]);
    expect(mails()[0]!.text).toContain("Why this came to you: the alert could not reach its own recipients");
    await until(async () => (await alert())?.status === "delivered", () => "the alert to be recorded as delivered");

    await page.goto(`${ui.api.url}/console/operations`);
    expect(await page.locator("#undelivered-alerts tbody tr", { hasText: key }).count()).toBe(0);
    expect((await readiness()).body.checks.alerts).toEqual({ ok: true, undelivered: 0 });
  }, 120_000);

  it("leaves the list and /readyz when an operator dismisses one", async () => {
    const key = `test-alert.${newTicketId()}`;
    const row = await ui.api.ctx.prisma.operatorAlert.create({ data: { alert_key: key, subject: "SSL certificate expires", text: "t", status: "undelivered", last_error: "no channel" } });
    const page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["manage_middleware"]));
    await page.goto(`${ui.api.url}/console/operations`);
    const listed = page.locator("#undelivered-alerts tbody tr", { hasText: key });
    expect((await readiness()).body.checks.alerts.ok).toBe(false);
    await Promise.all([page.waitForURL(/alert=dismissed/), listed.getByRole("button", { name: /Dismiss/ }).click()]);
    expect(await page.locator("#undelivered-alerts tbody tr", { hasText: key }).count()).toBe(0);
    expect(await ui.api.ctx.prisma.operatorAlert.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({ status: "dismissed", resolved_by: expect.stringMatching(/^console/) });
    expect((await readiness()).body.checks.alerts).toEqual({ ok: true, undelivered: 0 });
  }, 60_000);
});

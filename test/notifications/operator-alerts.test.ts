import { OPTIONS } from "@mw/domains/options";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGemini } from "../fakes/gemini.ts";
import { FakeSmtp } from "../fakes/smtp.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { logged, spawnEntry, type Spawned } from "../support/processes.ts";
import { analysisAnswer, entrySignal, newTicketId, postSignal, SECURITY_KEY, ticketBody } from "../support/tickets.ts";
import { until } from "../support/wait.ts";

// Issue 32: an alert whose own recipients or channel are missing goes to the operators, saying why.
const PROVIDER_KEY = "AIzaFAKE-operator-alerts-5d1e";
const OPERATORS = "ops@agency.example";
let gemini: FakeGemini;
let smtp: FakeSmtp;
let api: TestApi;
let worker: Spawned;

const resetOptions = (changes: Record<string, unknown> = {}) =>
  api.ctx.options.set({ ...Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])), ai_security_key: SECURITY_KEY, urgency_gate_seconds: 0, urgency_max_per_run: 1000, ...changes });

beforeAll(async () => {
  // A relay as production has one: STARTTLS, then AUTH, before it takes any mail.
  [gemini, smtp] = await Promise.all([new FakeGemini(PROVIDER_KEY).start(), new FakeSmtp({ user: "relay-user", pass: "relay pass/9" }).start()]);
  // No SMS account and no chat webhook: the SMS channel has nowhere to go either.
  const env = { AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY, AI_RETRY_BASE_MS: "10", SMTP_URL: smtp.url, ALERT_EMAIL_TO: OPERATORS, NODE_EXTRA_CA_CERTS: smtp.caFile! };
  api = await startApi(env);
  await resetOptions();
  for (const name of ["urgency", "notifications"] as const) await api.ctx.queues.get(name).obliterate({ force: true });
  worker = spawnEntry("packages/worker/src/main.ts", [], { ...env, WORKER_QUEUES: "urgency,notifications" });
  await worker.waitFor(logged("workers started"), 90_000);
}, 150_000);

afterAll(async () => {
  worker?.child.kill("SIGKILL");
  await worker?.exited();
  await resetOptions({ ai_security_key: null, urgency_gate_seconds: null, urgency_max_per_run: null });
  await api?.close();
  await Promise.all([gemini?.stop(), smtp?.stop()]);
});

describe("CRITICAL alerts without recipients", () => {
  it("reach the operators' address once, over STARTTLS with AUTH, saying why; every channel's history row says it was handed over", async () => {
    gemini.respond = () => analysisAnswer(92);
    const id = newTicketId();
    const number = String(id).padStart(6, "0");
    // A department nobody in the staff directory belongs to, and nobody assigned: no recipient at all.
    const ticket = ticketBody(id, { department: { id: newTicketId(), name: "Nobody's", manager_staff_id: null }, assigned_staff_id: null });
    expect((await postSignal(api, { ...entrySignal(id, "M", "Our shop shows a fake payment page!"), ticket })).status).toBeLessThan(300);

    const mails = () => smtp.messages.filter((mail) => mail.subject.includes(`#${number}`));
    const history = () => api.ctx.prisma.aiHistory.findMany({ where: { ticket_id: id, event: "critical_alert" }, orderBy: { channel: "asc" } });
    await until(async () => mails().length === 1 && (await history()).every((row) => row.sent_at !== null) && (await history()).length === 3, () => `the operators' alert (worker output:\n${worker.output().slice(-3000)})`, 30_000);

    const [mail] = mails();
    expect(mail!.to).toEqual([OPERATORS]);
    expect(mail!.secure).toBe(true);
    expect(mail!.user).toBe("relay-user");
    expect(mail!.subject).toBe(`[CRITICAL] Ticket #${number}: Checkout returns 500 for all customers`);
    expect(mail!.text).toContain("Urgency: 92%");
    expect(mail!.text).toContain("Why this came to you: the alert could not reach its own recipients (e-mail: the ticket has no recipients");
    expect(mail!.text).toContain("SMS: the ticket has no recipients");
    expect((await history()).map((row) => [row.channel, (row.detail as Record<string, unknown>).handed_to])).toEqual([
      ["browser", "operators"],
      ["email", "operators"],
      ["sms", "operators"],
    ]);
    // The sink holds the mail a moment before the worker records the delivery.
    const stored = () => api.ctx.prisma.operatorAlert.findUniqueOrThrow({ where: { alert_key: `critical-alert.${id}` } });
    await until(async () => (await stored()).status !== "pending", () => "the alert's delivery recorded", 30_000);
    const alert = await stored();
    expect([alert.status, alert.channels]).toEqual(["delivered", ["email"]]);

    // The three channel jobs raised one alert between them, and a sweep re-running one sends nothing more.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mails()).toHaveLength(1);
  }, 60_000);
});

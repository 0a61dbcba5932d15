// The management half of `pnpm demo`, sent as the real senders send it:
// osTicket's plugin posts ticket signals with the ai-security-key (new
// tickets, client replies, staff replies and internal notes), Sam (a staff
// member) connects Harvest through its OAuth pages, runs a timer and logs an
// entry through the ticket system's AJAX routes, and asks the assistant.
import { setTimeout as sleep } from "node:timers/promises";
import type { PrismaClient } from "@mw/platform";
import { postSse, tokensOf } from "../../test/support/sse.ts";
import { CHECKOUT, CONTACT_FORM, DEPARTMENT, numberOf, REDESIGN, ROUTINE, SAM, STAFF, type StoryTicket } from "./story.ts";
import type { DemoWorld } from "./world.ts";

/** One step of the story: it runs when `ready` says so (a reply that needs an earlier analysis waits for it). */
interface Step {
  run: () => Promise<void>;
  ready?: () => Promise<boolean>;
}

export interface DeskCounts {
  line: string;
  tickets: number;
  snapshots: number;
  critical: number;
  criticalMails: number;
  answers: number;
  connections: number;
  timers: number;
  logged: number;
}

/** Options the platform reads before it starts: the key osTicket signs with, time tracking against the Harvest fake, and analyses spaced for a short demo. */
export function deskOptions(world: DemoWorld, base: string, securityKey: string): Record<string, unknown> {
  return {
    ai_security_key: securityKey,
    // Production analyses a ticket at most every 10 minutes and 2 a minute (spec 2, 8); the demo lasts minutes.
    urgency_gate_seconds: 5,
    urgency_max_per_run: 60,
    "time_api.enabled": true,
    "time_api.client_id": world.harvest.clientId,
    "time_api.client_secret": world.harvest.clientSecret,
    "time_api.redirect_uri": `${base}/scp/ajax.php/timetracking/callback`,
    "time_api.sync_user_agent": "Demo Desk (ops@agency.example)",
    "time_api.default_task_id": world.harvest.tasks[0]!.id,
    "time_api.sync_account_id": world.harvest.accountId,
    "time_api.sync_token": world.harvest.personalToken(),
  };
}

export class DemoDesk {
  private readonly steps: Step[];
  private readonly posted = new Map<number, number>();
  private nextEntryId = 5001;
  private nextRoutine = 0;
  private ticks = 0;
  private timerEntry?: number;
  private timersStarted = 0;
  /** The assistant's answer, once asked: printed once by the caller. */
  answer?: { question: string; text: string };

  constructor(
    private readonly world: DemoWorld,
    private readonly prisma: PrismaClient,
    private readonly base: string,
    private readonly securityKey: string,
    /** Sam's HTTP Basic header (an application password), as the ticket system's agent calls arrive. */
    private readonly sam: string,
  ) {
    this.steps = [
      { run: () => this.post(CHECKOUT) },
      { run: () => this.post(REDESIGN) },
      { run: () => this.post(CHECKOUT) },
      { run: () => this.startTimer() },
      { run: () => this.post(CHECKOUT) },
      { run: () => this.post(CHECKOUT) },
      { run: () => this.logEntry() },
      { run: () => this.post(CONTACT_FORM) },
      // Sam's reply on the project ticket stops the timer he left running (spec 2, 3).
      { run: () => this.post(REDESIGN) },
      // The rollback waits for the analysis that saw the outage, so the CRITICAL alert goes out first.
      { run: () => this.post(CHECKOUT), ready: () => this.hasLevel(CHECKOUT.id, "CRITICAL") },
      { run: () => this.ask(), ready: async () => (await this.prisma.ticketEntry.count({ where: { ticket_id: CHECKOUT.id } })) === CHECKOUT.entries.length },
    ];
  }

  private async call(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; body: Record<string, unknown>; res: Response }> {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { ...headers, ...(body !== undefined && { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "manual",
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { text };
    }
    return { status: res.status, body: parsed, res };
  }

  private async expect(status: number, method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Record<string, unknown>> {
    const answer = await this.call(method, path, body, headers);
    if (answer.status !== status) throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
    return answer.body;
  }

  private signal(body: unknown): Promise<Record<string, unknown>> {
    return this.call("POST", "/tickets/v1/signals", body, { "ai-security-key": this.securityKey }).then((answer) => {
      if (answer.status !== 200 && answer.status !== 202) throw new Error(`the signal answered ${answer.status}: ${JSON.stringify(answer.body).slice(0, 500)}`);
      return answer.body;
    });
  }

  private ticketOf(story: StoryTicket) {
    return {
      id: story.id,
      number: numberOf(story.id),
      subject: story.subject,
      status: "open",
      organisation: story.organisation,
      user: story.client,
      is_vip: story.is_vip,
      customer_type: story.customer_type,
      department: DEPARTMENT,
      assigned_staff_id: SAM.id,
      created: new Date().toISOString(),
      fields: { time_project_id: story.project ? this.world.project.id : null, budget_hours: story.project?.budget_hours ?? null, quoted_hours: story.project?.quoted_hours ?? null },
    };
  }

  /** The ticket's next story entry, as osTicket's plugin signals a posted thread entry. */
  private async post(story: StoryTicket): Promise<void> {
    const done = this.posted.get(story.id) ?? 0;
    const entry = story.entries[done];
    if (!entry) return;
    const staff = entry.type !== "M";
    await this.signal({
      signal: "threadentry.created",
      ticket: this.ticketOf(story),
      entry: {
        id: this.nextEntryId++,
        type: entry.type,
        poster_name: staff ? SAM.name : story.client.name,
        poster_type: staff ? "Staff" : "User",
        staff_id: staff ? SAM.id : null,
        is_internal: entry.type === "N",
        body: entry.text,
        format: "text",
        created: new Date().toISOString(),
      },
    });
    this.posted.set(story.id, done + 1);
  }

  private timeAjax(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    return this.expect(200, method, `/scp/ajax.php/timetracking/${path}`, body, { authorization: this.sam });
  }

  /** The staff directory (for the CRITICAL alert's recipients), and Sam connected to Harvest as his browser would. */
  async seed(): Promise<void> {
    for (const member of STAFF) await this.signal({ signal: "staff.updated", staff: member });
    const link = await this.call("GET", "/scp/ajax.php/timetracking/connect-url", undefined, { authorization: this.sam });
    const authorize = (link.body.data as { url?: string } | undefined)?.url;
    if (link.status !== 200 || !authorize) throw new Error(`connect-url answered ${link.status}: ${JSON.stringify(link.body)}`);
    const cookie = (link.res.headers.get("set-cookie") ?? "").split(";")[0]!;
    const allowed = await fetch(authorize, { redirect: "manual", signal: AbortSignal.timeout(15_000) });
    const back = allowed.headers.get("location");
    if (allowed.status !== 302 || !back) throw new Error(`Harvest's authorize page answered ${allowed.status}`);
    const callback = await fetch(back, { headers: { cookie }, signal: AbortSignal.timeout(15_000) });
    if (callback.status !== 200) throw new Error(`the Harvest callback answered ${callback.status}: ${(await callback.text()).slice(0, 300)}`);
  }

  private async startTimer(): Promise<void> {
    const started = await this.timeAjax("POST", "timer/start", { ticket_id: REDESIGN.id });
    this.timerEntry = (started.data as { entry_id: number }).entry_id;
    this.timersStarted += 1;
    await this.timeAjax("PATCH", `timer/${this.timerEntry}`, { notes: "Wireframes for the product pages" });
  }

  private async logEntry(): Promise<void> {
    await this.timeAjax("POST", "submit", { ticket_id: REDESIGN.id, hours: 1.5, notes: "Mock-up review with the client" });
  }

  private async ask(): Promise<void> {
    const question = `What happened on #${numberOf(CHECKOUT.id)}, and what should I tell the client?`;
    const answer = await postSse(`${this.base}/scp/ajax.php/ai-assistant/chat`, { authorization: this.sam }, { message: question, agent_name: SAM.name, ticket_number: numberOf(CHECKOUT.id) });
    if (answer.events.at(-1)?.type !== "done") throw new Error(`the assistant answered ${answer.status}: ${JSON.stringify(answer.body ?? answer.events.at(-1))}`);
    this.answer = { question, text: tokensOf(answer) };
  }

  private async hasLevel(ticketId: number, urgency: string): Promise<boolean> {
    return (await this.prisma.aiSnapshot.count({ where: { ticket_id: ticketId, urgency } })) > 0;
  }

  /** The next story step when it is ready; after the first act, a routine ticket and its reply in turn. */
  async tick(): Promise<void> {
    this.ticks += 1;
    const next = this.steps[0];
    if (next) {
      if (!next.ready || (await next.ready())) {
        this.steps.shift();
        await next.run();
      }
      return;
    }
    if (this.ticks % 3 !== 0) return;
    const id = 104 + Math.floor(this.nextRoutine / 2);
    await this.post({ id, ...ROUTINE[(id - 104) % ROUTINE.length]! });
    this.nextRoutine += 1;
  }

  /** The rest of the first act (a short demo ends before it), then up to two minutes (a loaded machine) for every analysis and the CRITICAL alert. */
  async finish(): Promise<void> {
    const deadline = Date.now() + 120_000;
    while (this.steps.length && Date.now() < deadline) {
      const next = this.steps[0]!;
      if (next.ready && !(await next.ready())) {
        await sleep(500);
        continue;
      }
      this.steps.shift();
      await next.run();
    }
    while (Date.now() < deadline && !(await this.settled())) await sleep(1000);
  }

  private async settled(): Promise<boolean> {
    const [owed, running, counts] = await Promise.all([
      this.prisma.urgencyQueueEntry.count({ where: { processed: false, failures: { lt: 5 } } }),
      this.prisma.timeLog.count({ where: { is_running: true } }),
      this.counts(),
    ]);
    return owed === 0 && running === 0 && counts.criticalMails > 0;
  }

  /** What a user would look at: tickets mirrored, analyses and their levels, the CRITICAL mail, the assistant, time in Harvest. */
  async counts(): Promise<DeskCounts> {
    const [tickets, entries, snapshots, critical, answers, connections, logged] = await Promise.all([
      this.prisma.ticket.count(),
      this.prisma.ticketEntry.count(),
      this.prisma.aiSnapshot.count(),
      this.prisma.aiSnapshot.count({ where: { urgency: "CRITICAL" } }),
      this.prisma.assistantMessage.count({ where: { role: "assistant" } }),
      this.prisma.staffOauthConnection.count(),
      this.prisma.timeLog.count({ where: { is_running: false } }),
    ]);
    const criticalMails = this.world.smtp.messages.filter((mail) => mail.subject.startsWith("[CRITICAL]")).length;
    const line =
      `tickets ${tickets} (${entries} thread entries), urgency snapshots ${snapshots} (${critical} CRITICAL); ` +
      `CRITICAL alerts: e-mails ${criticalMails}, texts ${this.world.sms.sent.length}; assistant answers ${answers}; ` +
      `Harvest connections ${connections}, timers ${this.timersStarted}, time entries logged ${logged}`;
    return { line, tickets, snapshots, critical, criticalMails, answers, connections, timers: this.timersStarted, logged };
  }
}

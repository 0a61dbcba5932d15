import { randomUUID } from "node:crypto";
import { createRedis } from "@mw/platform";
import { orderExportJob, orderExportJobId } from "@mw/domains/orders";
import { Worker } from "bullmq";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { userWith } from "../support/api.ts";
import { expectAccessible } from "../support/axe.ts";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { newTicketId, postSignal, SECURITY_KEY, ticketBody, entrySignal } from "../support/tickets.ts";

// The console's pages for tickets, disputes, sync runs, reports and managed
// sites, each read side by side with the REST (or admin AJAX) answer it
// stands for, at 1280 px and 375 px, each action taken through its form, each
// refusal page, and each page checked for accessibility.
const ui = useConsole();
const RUN = `C${process.pid % 10000}${Date.now() % 100000}`;
const WIDTHS = [1280, 375] as const;
let operator: string;
let admin: string;
let staff: string;
let middleware: string;
let options: string;
let siteId: number;

beforeAll(async () => {
  const { prisma } = ui.api.ctx;
  await ui.api.ctx.options.set({ ai_security_key: SECURITY_KEY });
  operator = await consoleUser(ui.api, ["manage_middleware"]);
  admin = await consoleUser(ui.api, ["manage_options", "manage_middleware"]);
  staff = await consoleUser(ui.api, ["staff"], 9);
  middleware = await userWith(ui.api, "manage_middleware");
  options = await userWith(ui.api, "manage_options");
  siteId = (await prisma.site.create({ data: { name: `Pages ${RUN} storefront of the north-western regional outlet for garden furniture`, platform: "storefront_a", site_url: "https://pages.example" } })).id;
});

afterAll(async () => {
  const { prisma } = ui.api.ctx;
  await prisma.syncRun.deleteMany({ where: { site_id: siteId } });
  await prisma.order.deleteMany({ where: { site_id: siteId } });
  await prisma.site.delete({ where: { id: siteId } });
  // A staff id links one user: the next file of this database may link the fixtures' staff 9 to its own.
  await prisma.user.updateMany({ where: { login: staff }, data: { staff_id: null } });
});

async function rest<T>(path: string, authorization = middleware): Promise<T> {
  const res = await fetch(`${ui.api.url}${path}`, { headers: { authorization } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

async function adminAjax<T>(action: string, fields: Record<string, string> = {}): Promise<T> {
  const res = await fetch(`${ui.api.url}/admin-ajax`, { method: "POST", headers: { authorization: options }, body: new URLSearchParams({ action, ...fields }) });
  expect(res.status, action).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

async function signedInPage(login: string, width: number): Promise<Page> {
  const page = await (await ui.newContext({ viewport: { width, height: 800 } })).newPage();
  await signIn(page, ui.api.url, login);
  return page;
}

/** The page fits the screen (tables scroll in their own box) and passes the accessibility check. */
async function expectUsable(page: Page, width: number): Promise<void> {
  expect(await page.evaluate("document.documentElement.scrollWidth"), page.url()).toBeLessThanOrEqual(width);
  await expectAccessible(page);
}

const cells = (page: Page, selector: string) => page.locator(selector).allTextContents();

describe("tickets", () => {
  it("lists what GET /tickets/v1/tickets answers, filtered alike, and opens a ticket whose alert history says what became of each recipient", async () => {
    const { prisma } = ui.api.ctx;
    const critical = newTicketId();
    const low = newTicketId();
    // Sam (staff 9) has the critical one; Dana (staff 4) the other.
    for (const [id, subject, staffId] of [[critical, `Checkout down ${RUN}`, 9], [low, `Typo ${RUN}`, 4]] as const) {
      const res = await postSignal(ui.api, { ...entrySignal(id, "M", "It is broken."), ticket: ticketBody(id, { subject, assigned_staff_id: staffId }) });
      expect(res.status).toBeLessThan(300);
    }
    await prisma.ticket.update({ where: { id: critical }, data: { ai_urgency: "CRITICAL", ai_urgency_percentage: 92 } });
    await prisma.ticket.update({ where: { id: low }, data: { ai_urgency: "LOW", ai_urgency_percentage: 10 } });
    // The three ways an alert ends, as sendCriticalAlert records them.
    await prisma.aiHistory.createMany({
      data: [
        { ticket_id: critical, event: "critical_alert", channel: "email", sent_at: new Date(), detail: { status: "partly sent", sent_to: ["pm@agency.example"], failed: { "gm@agency.example": "550 mailbox unavailable" }, attempts: 3, outcome: "failed (gm@agency.example: 550 mailbox unavailable); sent to the operators instead", operator_alerts: ["x"] } },
        { ticket_id: critical, event: "critical_alert", channel: "sms", sent_at: new Date(), detail: { status: "not configured", outcome: "not configured (sent to the operators instead)", handed_to: "operators", reason: "SMS is not configured (SMS_PROVIDER_URL)" } },
        { ticket_id: critical, event: "critical_alert", channel: "browser", sent_at: new Date(), detail: { status: "sent", notified: [9], created: 1 } },
      ],
    });

    for (const width of WIDTHS) {
      const page = await signedInPage(staff, width);
      // A staff member sees their own tickets first, then everyone's.
      await page.goto(`${ui.api.url}/console/tickets?search=${RUN}`);
      const mine = await rest<{ tickets: { number: string }[]; total: number }>(`/tickets/v1/tickets?search=${RUN}&assigned_staff_id=9`, options);
      expect(mine.total).toBe(1);
      expect(await page.textContent("#ticket-total")).toBe("1 ticket assigned to you, most recently updated first");
      expect(await page.locator("#tickets tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-ticket-number")))).toEqual(mine.tickets.map((t) => t.number));
      await expectUsable(page, width);
      await page.selectOption("#f-assigned", "anyone");
      await page.click("form[role=search] button[type=submit]");
      await page.waitForURL(/assigned=anyone/);
      const listed = await rest<{ tickets: { number: string }[]; total: number }>(`/tickets/v1/tickets?search=${RUN}`, options);
      expect(listed.total).toBe(2);
      expect(await page.textContent("#ticket-total")).toBe(`${listed.total} tickets, most recently updated first`);
      expect(await page.locator("#tickets tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-ticket-number")))).toEqual(listed.tickets.map((t) => t.number));

      await page.selectOption("#f-urgency", "CRITICAL");
      await page.click("form[role=search] button[type=submit]");
      await page.waitForURL(/urgency=CRITICAL/);
      const filtered = await rest<{ tickets: { number: string }[] }>(`/tickets/v1/tickets?search=${RUN}&urgency=CRITICAL`, options);
      expect(await page.locator("#tickets a.ticket-link").allTextContents()).toEqual(filtered.tickets.map((t) => `#${t.number}`));

      await page.click("#tickets a.ticket-link");
      await page.waitForURL(new RegExp(`/console/tickets/${String(critical).padStart(6, "0")}$`));
      const line = (channel: string) => page.locator(`#ticket-history li.history-line[data-channel="${channel}"]`);
      expect(await line("email").locator(".alert-status").textContent()).toBe("partly sent");
      expect(await line("email").locator("li.recipient").allTextContents()).toEqual(["pm@agency.example: sent", "gm@agency.example: failed (550 mailbox unavailable)"]);
      expect(await line("email").locator(".handed").textContent()).toBe("sent to the operators instead");
      expect(await line("sms").locator(".alert-status").textContent()).toBe("not configured");
      expect(await line("sms").locator(".alert-note").textContent()).toBe("SMS is not configured (SMS_PROVIDER_URL)");
      expect(await line("sms").locator(".handed").count()).toBe(1);
      expect(await line("browser").locator(".alert-status").textContent()).toBe("sent");
      expect(await line("browser").locator(".handed").count()).toBe(0);
      await expectUsable(page, width);
    }
  }, 120_000);
});

describe("disputes", () => {
  it("lists GET /disputes' rows, shows one case with its linkage and lifecycle, and replays it through POST /disputes/replay's use case", async () => {
    const { prisma } = ui.api.ctx;
    const caseId = `${RUN}-D1`;
    await prisma.webhookEvent.create({
      data: { source: "acquirer", event_type: "dispute.created", event_id: `acquirer_case_${caseId}`, payload: "{}", payload_hash: "a".repeat(64), received_at: new Date(), outcome: "linked", processed_at: new Date() },
    });
    await prisma.webhookEvent.create({
      data: { source: "acquirer", event_type: "dispute.created", event_id: `acquirer_case_${RUN}-D2`, payload: "{}", payload_hash: "b".repeat(64), received_at: new Date(), outcome: "no_match", processed_at: new Date() },
    });
    await prisma.disputeLinkage.create({
      data: { case_id: caseId, mid: "12345", gateway_transaction_id: "10458823311", order_number: "100045", match_strategy: "auth_code_date", amount: 49.9, reason_code: "10.4", acquirer_data: "{}", gateway_data: "{}", linked_at: new Date() },
    });

    for (const width of WIDTHS) {
      const page = await signedInPage(operator, width);
      await page.goto(`${ui.api.url}/console/disputes`);
      const all = await rest<{ disputes: { webhook_id: number; state: string }[]; total: number }>("/middleware/v1/disputes");
      expect(await page.textContent("#dispute-total")).toBe(`${all.total} disputes received, newest first`);
      expect(await page.locator("#disputes tbody tr").evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-webhook-id"))))).toEqual(all.disputes.map((d) => d.webhook_id));
      await expectUsable(page, width);

      await page.selectOption("#f-state", "unmatched");
      await page.click("form[role=search] button[type=submit]");
      await page.waitForURL(/state=unmatched/);
      const unmatched = await rest<{ disputes: { case_id: string }[]; total: number }>("/middleware/v1/disputes?state=unmatched");
      expect(await cells(page, "#disputes a.dispute-link")).toEqual(unmatched.disputes.map((d) => d.case_id));

      await page.goto(`${ui.api.url}/console/disputes?case_id=${caseId}`);
      await page.click("#disputes a.dispute-link");
      await page.waitForURL(new RegExp(`/console/disputes/${caseId}$`));
      const [one] = (await rest<{ disputes: { state: string; attempts: number; jobs: number }[] }>(`/middleware/v1/disputes?case_id=${caseId}`)).disputes;
      expect(await page.textContent("#dispute-lifecycle .dispute-state")).toBe(one!.state);
      expect(await page.textContent("#dispute-lifecycle .dispute-attempts")).toContain(String(one!.attempts));
      const linkage = (await rest<{ linkages: { order_number: string; gateway_transaction_id: string }[] }>(`/middleware/v1/disputes/linkages?case_id=${caseId}`)).linkages;
      expect(await cells(page, "#linkages tbody tr td:nth-child(2)")).toEqual(linkage.map((l) => l.gateway_transaction_id));
      await expectUsable(page, width);

      // Replay: the first queues a job; the second, with that job still waiting, is skipped with why (as POST /disputes/replay answers).
      const jobsBefore = one!.jobs;
      await page.click("#replay");
      await page.waitForURL(/replay=/);
      const said = await page.textContent("#replay-said");
      const after = (await rest<{ disputes: { jobs: number; job_id: string }[] }>(`/middleware/v1/disputes?case_id=${caseId}`)).disputes[0]!;
      if (width === WIDTHS[0]) {
        expect(said).toBe(`Queued again as job ${after.job_id}.`);
        expect(after.jobs).toBe(jobsBefore + 1);
      } else {
        expect(said).toMatch(/^Not queued: already in progress: job .+ is waiting/);
        expect(after.jobs).toBe(jobsBefore);
      }
    }
  }, 120_000);
});

describe("sync runs", () => {
  it("lists a site's tracking and inventory runs as GET /sync-runs does, filtered by site and kind", async () => {
    const { prisma } = ui.api.ctx;
    const now = Date.now();
    await prisma.syncRun.create({ data: { site_id: siteId, kind: "tracking", status: "completed", counts: { orders: 3, completed: 2 }, started_at: new Date(now - 60_000), finished_at: new Date(now - 55_000) } });
    await prisma.syncRun.create({ data: { site_id: siteId, kind: "inventory", status: "failed", error: "storefront refused the credentials (401)", started_at: new Date(now - 30_000), finished_at: new Date(now - 29_000) } });
    for (const width of WIDTHS) {
      const page = await signedInPage(operator, width);
      await page.goto(`${ui.api.url}/console/sync-runs`);
      await page.selectOption("#f-site", String(siteId));
      await page.click("form[role=search] button[type=submit]");
      await page.waitForURL(new RegExp(`site_id=${siteId}`));
      const runs = await rest<{ sync_runs: { id: number; outcome: string }[]; total: number }>(`/middleware/v1/sync-runs?site_id=${siteId}`);
      expect(runs.total).toBe(2);
      expect(await page.textContent("#run-total")).toBe(`${runs.total} runs`);
      expect(await page.locator("#sync-runs tbody tr").evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-run-id"))))).toEqual(runs.sync_runs.map((r) => r.id));
      expect(await cells(page, "#sync-runs .run-outcome")).toEqual(runs.sync_runs.map((r) => r.outcome));
      await expectUsable(page, width);

      await page.selectOption("#f-kind", "inventory");
      await page.click("form[role=search] button[type=submit]");
      await page.waitForURL(/kind=inventory/);
      const inventory = await rest<{ sync_runs: { id: number }[] }>(`/middleware/v1/sync-runs?site_id=${siteId}&kind=inventory`);
      expect(await page.locator("#sync-runs tbody tr").evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-run-id"))))).toEqual(inventory.sync_runs.map((r) => r.id));
    }
  }, 120_000);

  it("shows a site's tracking state as GET /tracking/status does and syncs it now through POST /tracking/sync's use case", async () => {
    const { prisma } = ui.api.ctx;
    await prisma.syncRun.create({ data: { site_id: siteId, kind: "tracking", status: "failed", error: "storefront unreachable (ECONNREFUSED)", started_at: new Date(Date.now() - 5000), finished_at: new Date() } });
    const page = await signedInPage(operator, 375);
    await page.goto(`${ui.api.url}/console/sync-runs?site_id=${siteId}`);
    let status = await rest<{ enabled: boolean; last_error: { message: string; at: string } | null }>(`/middleware/v1/tracking/status/${siteId}`);
    expect(status.enabled).toBe(false);
    expect(await page.textContent("#tracking-enabled")).toBe("off");
    expect(await page.locator("#sync-tracking").count()).toBe(0);
    expect(await page.textContent("#tracking-last-error")).toBe(`Last failure ${status.last_error!.at} UTC: ${status.last_error!.message}`);

    await prisma.site.update({ where: { id: siteId }, data: { is_active: true, tracking_sync: true, tracking_enabled: true } });
    await page.reload();
    status = await rest(`/middleware/v1/tracking/status/${siteId}`);
    expect(status.enabled).toBe(true);
    expect(await page.textContent("#tracking-enabled")).toBe("on");
    await page.click("#sync-tracking");
    await page.waitForURL(/queued=/);
    expect(await page.textContent("#sync-queued")).toMatch(new RegExp(`^Tracking sync queued: job tracking-sync\\.${siteId}\\.manual\\.\\d+\\.$`));
    await expectUsable(page, 375);
    await prisma.site.update({ where: { id: siteId }, data: { tracking_sync: false } });
  }, 60_000);
});

describe("reports", () => {
  it("requests a report through the form, lists what GET /reports does, refuses a bad period in words, and downloads a finished report's CSV", async () => {
    const { prisma, storage } = ui.api.ctx;
    const storageKey = `reports/${RUN}.csv`;
    await storage.put(storageKey, "order_number,site,dateadded,total\n100045,Main shop,2026-11-19 14:02:11,44.75\n", "text/csv");
    await prisma.report.create({ data: { type: "order-intake-daily", report_key: `order-intake-daily:2026-01-0${(process.pid % 9) + 1}-${RUN}`, params: { from: "2026-01-01", to: "2026-01-01" }, status: "completed", row_count: 1, storage_key: storageKey, finished_at: new Date() } });

    for (const [i, width] of WIDTHS.entries()) {
      const page = await signedInPage(operator, width);
      await page.goto(`${ui.api.url}/console/reports`);
      await page.selectOption("#r-type", "dispute-outcomes");
      await page.fill("#r-date", `2026-02-1${i}`);
      await page.click("#request-report button[type=submit]");
      await page.waitForURL(/requested=/);
      expect(await page.textContent("#report-requested")).toMatch(new RegExp(`^dispute-outcomes:2026-02-1${i}: queued \\(job .+\\)\\.$`));
      const listed = await rest<{ reports: { id: number; key: string; status: string }[]; total: number }>("/middleware/v1/reports");
      expect(await page.textContent("#report-total")).toBe(`${listed.total} reports, newest first`);
      expect(await page.locator("#reports tbody tr").evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-report-id"))))).toEqual(listed.reports.map((r) => r.id));
      expect(listed.reports.find((r) => r.key === `dispute-outcomes:2026-02-1${i}`)?.status).toBe("queued");
      await expectUsable(page, width);

      await page.fill("#r-date", "");
      await page.fill("#r-from", "2026-03-10");
      await page.fill("#r-to", "2026-03-01");
      await page.click("#request-report button[type=submit]");
      expect(await page.textContent("#report-problem")).toBe("to: must not be before from");

      await page.goto(`${ui.api.url}/console/reports?status=completed`);
      const [download] = await Promise.all([page.waitForEvent("download"), page.locator("a.report-download").first().click()]);
      const completed = await rest<{ reports: { id: number }[] }>("/middleware/v1/reports?status=completed");
      const csv = await (await fetch(`${ui.api.url}/middleware/v1/reports/${completed.reports[0]!.id}/download`, { headers: { authorization: middleware } })).text();
      const path = await download.path();
      const { readFile } = await import("node:fs/promises");
      expect(await readFile(path, "utf8")).toBe(csv);
    }
  }, 120_000);
});

describe("managed sites", () => {
  it("adds a site through add_site's use case and lists what get_sites answers, with its costs and certificate on its page", async () => {
    const { prisma } = ui.api.ctx;
    for (const [i, width] of WIDTHS.entries()) {
      const page = await signedInPage(admin, width);
      await page.goto(`${ui.api.url}/console/managed-sites`);
      await page.fill("#a-name", `Shop ${RUN} ${i}`);
      await page.fill("#a-url", `https://shop-${i}-${RUN.toLowerCase()}.example/`);
      await page.fill("#a-client", `Client ${RUN}`);
      await page.click("#add-site button[type=submit]");
      await page.waitForURL(/\/console\/managed-sites\/\d+\?added=1$/);
      const id = Number(new URL(page.url()).pathname.split("/").at(-1));
      const stored = await adminAjax<{ name: string; url: string; ssl_expires_at: string | null }>("get_site", { id: String(id) });
      expect(stored.url).toBe(`https://shop-${i}-${RUN.toLowerCase()}.example`);
      expect(await page.textContent("#site-name")).toBe(stored.name);
      await prisma.managedSite.update({ where: { id }, data: { ssl_expires_at: new Date(Date.now() + 10 * 86_400_000), ssl_issuer: "R11" } });
      const cost = await prisma.cost.create({ data: { name: `Hosting ${RUN} ${i}`, vendor: "Kinsta", amount: 120, currency: "EUR", cycle: "yearly", sites: { create: [{ site_id: id }] } } });
      await page.reload();
      const detail = await adminAjax<{ ssl_days_left: number; monthly_total: { currency: string; amount: number }[] }>("get_site", { id: String(id) });
      expect(await page.textContent("#site-ssl")).toContain(`${detail.ssl_days_left} days left`);
      expect(await page.textContent("#monthly-total")).toBe(`Monthly total: ${detail.monthly_total.map((t) => `${t.amount} ${t.currency}`).join(", ")}`);
      await expectUsable(page, width);

      await page.goto(`${ui.api.url}/console/managed-sites?client=${encodeURIComponent(`Client ${RUN}`)}`);
      const listed = await adminAjax<{ sites: { id: number }[]; total: number }>("get_sites", { client: `Client ${RUN}` });
      expect(listed.total).toBe(i + 1);
      expect(await page.locator("#managed-sites tbody tr").evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-site-id"))))).toEqual(listed.sites.map((s) => s.id));
      await expectUsable(page, width);

      // The same URL again: add_site's refusal, in words, on the page.
      await page.fill("#a-name", "Again");
      await page.fill("#a-url", `https://shop-${i}-${RUN.toLowerCase()}.example`);
      await page.click("#add-site button[type=submit]");
      expect(await page.textContent("h1")).toBe("Something went wrong");
      expect(await page.textContent("main")).toContain("already exists");

      for (const path of ["costs", "licences"]) {
        await page.goto(`${ui.api.url}/console/${path}`);
        await expectUsable(page, width);
      }
      const costs = await adminAjax<{ total: number }>("get_costs", {});
      await page.goto(`${ui.api.url}/console/costs`);
      expect(await page.textContent("#cost-total")).toBe(`${costs.total} cost${costs.total === 1 ? "" : "s"}`);
      await prisma.siteCost.deleteMany({ where: { cost_id: cost.id } });
    }
  }, 120_000);
});

describe("refusals and failures", () => {
  it("tells a user without the capability which one each page needs", async () => {
    const page = await signedInPage(staff, 1280);
    for (const path of ["disputes", "disputes/CB-1", "sync-runs", "reports", "managed-sites", "costs", "licences"]) {
      const res = await page.goto(`${ui.api.url}/console/${path}`);
      expect(res?.status(), path).toBe(403);
      expect(await page.textContent("h1")).toBe("You lack the capability");
      expect(await page.textContent("#lacking"), path).toContain(["managed-sites", "costs", "licences"].includes(path) ? "manage_options" : "manage_middleware");
      await expectAccessible(page);
    }
    const operatorPage = await signedInPage(operator, 375);
    const res = await operatorPage.goto(`${ui.api.url}/console/tickets`);
    expect(res?.status()).toBe(403);
    expect(await operatorPage.textContent("#lacking")).toContain("staff");
    await expectUsable(operatorPage, 375);
  }, 60_000);

  it("counts an order export that failed four times and is retrying as a failure on the operations page, with its attempts", async () => {
    const { prisma, queues } = ui.api.ctx;
    const order = await prisma.order.create({
      data: { site_id: siteId, number: `${RUN}-R`, dateadded: new Date(), payment_method: "pay_1", contact_id: 1, shipping_agent_code: "UPS", shipping_agent_service: "GROUND", payload_hash: "e".repeat(64) },
    });
    const jobId = orderExportJobId(order.id);
    await queues.add(orderExportJob, { order_id: order.id, order_number: order.number, site_id: siteId }, { jobId });
    // Four real failed attempts: a worker takes the job and fails it; BullMQ puts it back with its backoff, which is promoted at once.
    const queue = queues.get(orderExportJob.queue);
    const connection = createRedis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379", { blocking: true });
    const worker = new Worker(queue.name, null, { connection, prefix: queue.opts.prefix, autorun: false });
    try {
      for (let attempt = 1; attempt <= 4; attempt += 1) {
        const token = randomUUID();
        const job = await worker.getNextJob(token, { block: false });
        expect(job?.id).toBe(jobId);
        await job!.moveToFailed(new Error("ERP request failed: 503 Service Unavailable"), token, true);
        expect(await queue.getJobState(jobId)).toBe("delayed");
        if (attempt < 4) await (await queue.getJob(jobId))!.promote();
      }
    } finally {
      await worker.close(true);
      connection.disconnect();
    }

    for (const width of WIDTHS) {
      const page = await signedInPage(operator, width);
      await page.goto(`${ui.api.url}/console/operations`);
      const row = page.locator("#failures-by-source tbody tr", { hasText: "retrying after a failed attempt" });
      expect(Number(await row.locator("a.failures-day").textContent())).toBeGreaterThanOrEqual(1);
      expect(Number(await row.locator("a.failures-week").textContent())).toBeGreaterThanOrEqual(1);
      const item = page.locator("#retrying-orders li", { hasText: `Order ${order.number}` });
      expect(await item.locator(".retry-attempts").textContent()).toBe("4 attempts");
      expect(await item.textContent()).toContain("ERP request failed: 503 Service Unavailable");
      // The order's own answer agrees: retrying, four attempts.
      const detail = await rest<{ state: string; attempts: number }>(`/middleware/v1/orders/${order.id}`);
      expect(detail).toMatchObject({ state: "retrying", attempts: 4 });
      await expectUsable(page, width);
    }
  }, 120_000);
});

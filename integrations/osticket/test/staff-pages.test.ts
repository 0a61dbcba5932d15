import type { Browser, BrowserContext, Page } from "playwright-core";
import { OPTIONS } from "@mw/domains/options";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeGemini } from "../../../test/fakes/gemini.ts";
import { startApi, type TestApi } from "../../../test/support/api.ts";
import { launchBrowser, RECORD_NOTIFICATIONS } from "../../../test/support/browser.ts";
import { SECURITY_KEY } from "../../../test/support/tickets.ts";
import { until } from "../../../test/support/wait.ts";
import { ADMIN, OsTicket, requirePhp } from "./osticket.ts";

// Issue 31, "What it must show": the platform's staff pages inside osTicket's staff panel, driven in Chromium
// as an agent uses them: the assistant on a ticket and on its page, the CRITICAL alert bell, the snapshot page.
const PROVIDER_KEY = "AIzaFAKE-osticket-pages-5e10";
const ADMIN_STAFF_ID = 1;
let desk: OsTicket;
let gemini: FakeGemini;
let api: TestApi;
let browser: Browser;

/** The last streamed answer the platform asked the model for. */
const lastAnswerCall = () => gemini.calls.filter((call) => call.body.contents).at(-1)!;

/** An agent's browser, signed in to osTicket's staff panel through its login form. */
async function agentPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${desk.url}/scp/login.php`);
  await page.fill("#name", ADMIN.username);
  await page.fill("#pass", ADMIN.password);
  await Promise.all([page.waitForURL(/\/scp\/(index|tickets)\.php/), page.click("button[type=submit]")]);
  return page;
}

beforeAll(async () => {
  await requirePhp();
  gemini = await new FakeGemini(PROVIDER_KEY).start();
  api = await startApi({ AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY, AI_RETRY_BASE_MS: "10" });
  await api.ctx.options.set({ ai_security_key: SECURITY_KEY });
  desk = new OsTicket();
  [browser] = await Promise.all([launchBrowser(), desk.install()]);
  await desk.startIdsAt(20_000_000 + (Date.now() % 1_000_000) * 10);
  // Generous timeouts: on a busy machine a slow answer would open the breaker and leave the signals to cron, or the staff pages without answers.
  expect(await desk.configure(api.url, SECURITY_KEY, ["--timeout", "10", "--staff-timeout", "10"])).toMatch(/Platform bridge installed/);
}, 600_000);

afterAll(async () => {
  await browser?.close();
  await desk?.stop();
  await api?.ctx.options.set(Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])));
  await api?.close();
  await gemini?.stop();
}, 60_000);

describe("the platform's staff pages in osTicket", () => {
  it("on a ticket, the assistant's answer streams token by token through the plugin, about this ticket, cited tickets linking to osTicket", async () => {
    const cited = await desk.createTicket({ subject: "Refund for a double charge", message: "The card was charged twice." });
    const viewed = await desk.createTicket({ subject: "Confirmation e-mail never arrives", message: "No confirmation since Monday." });
    const viewedId = await desk.ticketId(viewed.number);
    await until(async () => (await api.ctx.prisma.ticket.count({ where: { number: { in: [cited.number, viewed.number] } } })) === 2, () => "both tickets at the platform", 60_000);

    const context = await browser.newContext();
    const page = await agentPage(context);
    await page.goto(`${desk.url}/scp/tickets.php?id=${viewedId}`);
    // The page is osTicket's; the panel is filled afterwards by the plugin's script.
    await page.click(".platform-ticket-panel summary");
    gemini.script({ pieces: ["The e-mails bounce ", `<img src=x onerror="window.__injected = true">; as in #${cited.number} `, "resend them."], intervalMs: 700 });
    await page.fill(".platform-ticket-panel textarea", "Why does this ticket's customer get no e-mail?");
    await page.click(".platform-ticket-panel button.platform-ask");

    const answer = page.locator(".platform-ticket-panel .platform-from-assistant .platform-content").last();
    // The first token is on the page while the rest is still on its way.
    await expect.poll(() => answer.textContent(), { timeout: 20_000 }).toBe("The e-mails bounce ");
    expect(await answer.getAttribute("class")).toContain("platform-streaming");
    await expect.poll(() => answer.getAttribute("class"), { timeout: 20_000 }).toContain("platform-done");
    expect(await answer.textContent()).toContain(`<img src=x onerror="window.__injected = true">; as in #${cited.number} resend them.`);
    expect(await page.evaluate("window.__injected")).toBeUndefined();
    expect(await answer.locator("a.platform-cited").first().getAttribute("href")).toBe(`/scp/tickets.php?number=${cited.number}`);
    // "This ticket" is the one on the screen.
    expect(JSON.stringify(lastAnswerCall().body)).toContain("Confirmation e-mail never arrives");

    // The Assistant page, from the staff navigation: the conversation is listed and reopens with both messages.
    await page.click("#nav .platform-nav a:text('Assistant')");
    await page.waitForURL(`${desk.url}/scp/ajax.php/platform-bridge/assistant`);
    const listed = page.locator(".platform-conversations a");
    await expect.poll(() => listed.count(), { timeout: 15_000 }).toBe(1);
    await listed.first().click();
    await expect.poll(() => page.locator(".platform-thread .platform-message").count()).toBe(2);
    expect(await page.locator(".platform-thread .platform-from-user").textContent()).toContain("Why does this ticket's customer get no e-mail?");
    await context.close();
  }, 120_000);

  it("shows a CRITICAL alert on the bell with its count and one desktop notification per browser; mark as read clears it", async () => {
    const created = await desk.createTicket({ subject: "Checkout down", message: "No customer can pay." });
    const ticketId = await desk.ticketId(created.number);
    const context = await browser.newContext();
    await context.grantPermissions(["notifications"], { origin: desk.url });
    await context.addInitScript(RECORD_NOTIFICATIONS);
    const page = await agentPage(context);
    await page.locator("#platform-alerts").waitFor();
    expect(await page.isHidden("#platform-alerts .platform-badge")).toBe(true);

    await api.ctx.prisma.staffNotification.create({ data: { staff_id: ADMIN_STAFF_ID, ticket_id: ticketId, kind: "critical", title: `CRITICAL: ticket #${created.number}`, body: "Checkout down (92%)" } });
    await page.goto(`${desk.url}/scp/tickets.php`);
    await expect.poll(() => page.textContent("#platform-alerts .platform-badge"), { timeout: 15_000 }).toBe("1");
    await expect.poll(() => page.evaluate("window.__shown"), { timeout: 15_000 }).toEqual([`CRITICAL: ticket #${created.number}`]);
    // Another page of the same browser: the count stays, the desktop notification is not repeated.
    await page.goto(`${desk.url}/scp/index.php`);
    await expect.poll(() => page.textContent("#platform-alerts .platform-badge"), { timeout: 15_000 }).toBe("1");
    expect(await page.evaluate("window.__shown")).toEqual([]);

    await page.click("#platform-alerts");
    const item = page.locator(".platform-alert-list li a").first();
    expect(await item.textContent()).toBe(`CRITICAL: ticket #${created.number}`);
    expect(await item.getAttribute("href")).toBe(`/scp/tickets.php?id=${ticketId}`);
    await page.click(".platform-mark-all");
    await expect.poll(() => page.isHidden("#platform-alerts .platform-badge")).toBe(true);
    expect(await api.ctx.prisma.staffNotification.count({ where: { staff_id: ADMIN_STAFF_ID, read_at: null } })).toBe(0);
    await context.close();
  }, 90_000);

  it("lists urgency snapshots 20 a page, filters them by ticket number and level, links each to its ticket, and fits 375 px", async () => {
    const [first, second] = await Promise.all([desk.createTicket({ subject: "Slow search", message: "Search takes 20 s." }), desk.createTicket({ subject: "Shop offline", message: "The shop is offline." })]);
    const ids = await Promise.all([desk.ticketId(first.number), desk.ticketId(second.number)]);
    await until(async () => (await api.ctx.prisma.ticket.count({ where: { id: { in: ids } } })) === 2, () => "both tickets at the platform", 60_000);
    const snapshot = (ticketId: number, urgency: string, percentage: number, title: string) => ({ ticket_id: ticketId, urgency, urgency_percentage: percentage, estimated_hours: "2.5", summary: "<p>s</p>", timeline: "<ul></ul>", suggested_title: title, model_used: "gemini-2.5-flash" });
    await api.ctx.prisma.aiSnapshot.createMany({
      data: [...Array.from({ length: 22 }, (_, i) => snapshot(ids[0]!, "MEDIUM", 40 + (i % 10), `Search is slow <b>${i}</b>`)), snapshot(ids[1]!, "CRITICAL", 95, "Shop is offline")],
    });

    const context = await browser.newContext({ viewport: { width: 375, height: 800 } });
    const page = await agentPage(context);
    await page.goto(`${desk.url}/scp/ajax.php/platform-bridge/snapshots`);
    const rows = page.locator(".platform-table tbody tr");
    // 20 a page (the run's other tests may have stored snapshots too).
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(20);
    // Text stays text.
    expect(await page.locator(".platform-table b").count()).toBe(0);
    // The page's content fits the phone: nothing of it reaches past 375 px or scrolls sideways.
    const fit = (await page.evaluate(`(() => {
      const content = document.querySelector("[data-platform-page]");
      return { right: Math.max(...[content, ...content.querySelectorAll("*")].map((node) => node.getBoundingClientRect().right)), scrolls: content.scrollWidth > content.clientWidth };
    })()`)) as { right: number; scrolls: boolean };
    expect(fit.right).toBeLessThanOrEqual(375);
    expect(fit.scrolls).toBe(false);
    console.info(`snapshot page at 375 px: document ${await page.evaluate("document.documentElement.scrollWidth")} px wide, its content reaches ${Math.round(fit.right)} px`);

    await page.fill(".platform-filter input", second.number);
    await page.selectOption(".platform-filter select", "CRITICAL");
    await page.click(".platform-filter button[type=submit]");
    await expect.poll(() => page.textContent(".platform-pages"), { timeout: 15_000 }).toContain("Page 1 of 1 (1 snapshots)");
    const link = rows.first().locator("a");
    expect(await link.textContent()).toBe(`#${second.number}`);
    expect(await link.getAttribute("href")).toBe(`/scp/tickets.php?id=${ids[1]}`);
    expect(new URL(page.url()).searchParams.get("level")).toBe("CRITICAL");
    await page.fill(".platform-filter input", first.number);
    await page.click(".platform-filter button[type=submit]");
    await expect.poll(() => page.textContent(".platform-results"), { timeout: 15_000 }).toBe("No snapshots match.");

    await page.selectOption(".platform-filter select", "");
    await page.fill(".platform-filter input", first.number);
    await page.click(".platform-filter button[type=submit]");
    await expect.poll(() => page.textContent(".platform-pages"), { timeout: 15_000 }).toContain("Page 1 of 2 (22 snapshots)");
    await page.click(".platform-pages button:text('Next')");
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(2);
    await Promise.all([page.waitForURL(`${desk.url}/scp/tickets.php?id=${ids[0]}`), rows.first().locator("a").click()]);
    await context.close();
  }, 90_000);
});

import { beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "../support/axe.ts";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { entrySignal, newTicketId, postSignal, SECURITY_KEY, ticketBody } from "../support/tickets.ts";

const ui = useConsole();

beforeAll(async () => {
  await ui.api.ctx.options.set({ ai_security_key: SECURITY_KEY });
});

/** A ticket mirrored through a signal (design 10.1), with snapshots as the pipeline writes them. */
async function ticketWithSnapshots(subject: string, levels: { urgency: string; urgency_percentage: number }[], entry?: Record<string, unknown>) {
  const id = newTicketId();
  const signal = entrySignal(id, "M", "The checkout answers 500 since this morning.", entry);
  const res = await postSignal(ui.api, { ...signal, ticket: ticketBody(id, { subject }) });
  expect(res.status).toBeLessThan(300);
  for (const [i, level] of levels.entries()) {
    await ui.api.ctx.prisma.aiSnapshot.create({
      data: { ticket_id: id, ...level, estimated_hours: 2.5, summary: "<p>Checkout <strong>down</strong></p>", timeline: "<ul><li>09:00 reported</li></ul>", suggested_title: `Checkout outage ${i}`, model_used: "gemini-2.5-flash", created: new Date(Date.now() - (levels.length - i) * 1000) },
    });
  }
  const last = levels.at(-1);
  if (last) {
    await ui.api.ctx.prisma.ticket.update({
      where: { id },
      data: { ai_urgency: last.urgency, ai_urgency_percentage: last.urgency_percentage, ai_estimated_hours: 2.5, ticket_summary: "<p>Checkout <strong>down</strong> for everyone</p>", ai_timeline: "<ul><li>09:00 reported</li></ul>", ai_suggested_title: "Checkout outage" },
    });
  }
  return { id, number: String(id).padStart(6, "0") };
}

describe("console sign-in", () => {
  it("sends a browser without a session to sign in, rejects a wrong password, then goes where it was headed; sign out ends the session", async () => {
    const login = await consoleUser(ui.api, ["staff"]);
    const page = await (await ui.newContext()).newPage();
    await page.goto(`${ui.api.url}/console/snapshots?level=HIGH`);
    expect(new URL(page.url()).pathname).toBe("/console/login");

    await page.fill("#login", login);
    await page.fill("#password", "wrong password");
    await page.click("button[type=submit]");
    expect(await page.textContent("#error")).toBe("Invalid login or password.");

    await page.fill("#password", "correct horse battery");
    await page.click("button[type=submit]");
    await page.waitForURL(`${ui.api.url}/console/snapshots?level=HIGH`);
    expect(await page.locator("#f-level").inputValue()).toBe("HIGH");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(`${ui.api.url}/console/login`);
    await page.goto(`${ui.api.url}/console/snapshots`);
    expect(new URL(page.url()).pathname).toBe("/console/login");
  }, 60_000);

  it("tells a user which capability a page needs", async () => {
    const login = await consoleUser(ui.api, ["staff"]);
    const page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, login);
    const res = await page.goto(`${ui.api.url}/console/settings`);
    expect(res?.status()).toBe(403);
    expect(await page.textContent("h1")).toBe("You lack the capability");
    expect(await page.textContent("#lacking")).toContain("manage_options");
  }, 60_000);

  it("refuses a form posted without the session's nonce", async () => {
    const login = await consoleUser(ui.api, ["staff"]);
    const context = await ui.newContext();
    const page = await context.newPage();
    await signIn(page, ui.api.url, login);
    const res = await context.request.post(`${ui.api.url}/console/logout`, { form: { nonce: "forged" } });
    expect(res.status()).toBe(403);
    expect(await res.text()).toContain("This form has expired");
    await page.goto(`${ui.api.url}/console/snapshots`);
    expect(new URL(page.url()).pathname).toBe("/console/snapshots");
  }, 60_000);
});

describe("urgency snapshots and tickets", () => {
  it("filters snapshots by ticket number and by level, levels coloured and percentages as bars", async () => {
    const critical = await ticketWithSnapshots("Checkout down", [{ urgency: "HIGH", urgency_percentage: 60 }, { urgency: "CRITICAL", urgency_percentage: 90 }]);
    const low = await ticketWithSnapshots("Typo on the about page", [{ urgency: "LOW", urgency_percentage: 10 }]);
    const page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["staff"]));
    await page.goto(`${ui.api.url}/console/snapshots`);

    await page.fill("#f-number", critical.number);
    await page.click("form[role=search] button[type=submit]");
    await page.waitForURL(/ticket_number=/);
    const rows = page.locator("#snapshots tbody tr");
    expect(await rows.count()).toBe(2);
    // Newest first.
    expect(await rows.nth(0).locator(".level").textContent()).toBe("CRITICAL");
    expect(await rows.nth(0).locator(".level").getAttribute("class")).toContain("level-CRITICAL");
    expect(await rows.nth(0).locator("meter").getAttribute("value")).toBe("90");
    expect(await rows.nth(1).locator(".level").textContent()).toBe("HIGH");

    await page.fill("#f-number", "");
    await page.selectOption("#f-level", "LOW");
    await page.click("form[role=search] button[type=submit]");
    await page.waitForURL(/level=LOW/);
    const levels = await page.locator("#snapshots tbody .level").allTextContents();
    expect(new Set(levels)).toEqual(new Set(["LOW"]));
    expect(await page.locator(`#snapshots a[href="/console/tickets/${low.number}"]`).count()).toBe(1);
    expect(await page.locator(`#snapshots a[href="/console/tickets/${critical.number}"]`).count()).toBe(0);
  }, 60_000);

  it("opens a ticket: its AI fields, thread and history, with a <script> subject shown as text and thread HTML cleaned", async () => {
    const subject = `<script>window.__injected = true</script><img src=x onerror="window.__injected = true"> Checkout down`;
    const ticket = await ticketWithSnapshots(subject, [{ urgency: "MEDIUM", urgency_percentage: 40 }, { urgency: "CRITICAL", urgency_percentage: 85 }], {
      format: "html",
      body: `<p>Help, <strong>checkout</strong> is down</p><script>window.__injected = true</script><a href="javascript:alert(1)">click</a><img src=x onerror="window.__injected = true">`,
    });
    const page = await (await ui.newContext()).newPage();
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["staff"]));
    await page.goto(`${ui.api.url}/console/snapshots?ticket_number=${ticket.number}`);
    await page.click(`#snapshots a[href="/console/tickets/${ticket.number}"] >> nth=0`);
    await page.waitForURL(`${ui.api.url}/console/tickets/${ticket.number}`);

    expect(await page.textContent("#ticket-subject")).toBe(`#${ticket.number} · ${subject}`);
    expect(await page.evaluate("window.__injected")).toBeUndefined();
    expect(await page.locator("#ticket-summary strong").textContent()).toBe("down");
    expect(await page.locator("#ai-timeline li").textContent()).toBe("09:00 reported");
    const entry = page.locator("article.entry").first();
    expect(await entry.locator("strong", { hasText: "checkout" }).count()).toBe(1);
    expect(await entry.locator("script, img").count()).toBe(0);
    expect(await entry.locator("a").getAttribute("href")).toBeNull();
    expect(await page.locator("#ticket-snapshots tbody tr").count()).toBe(2);
    expect(errors.filter((text) => text.includes("Content Security Policy"))).toEqual([]);
  }, 60_000);

  it("is usable at 375 px: nothing wider than the screen but the tables' own scroll areas", async () => {
    const page = await (await ui.newContext({ viewport: { width: 375, height: 740 } })).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["staff", "manage_options", "manage_middleware"], newTicketId()));
    // What operations shows is whatever upstreams answered: long unbroken URLs and keys among it.
    const unbroken = `http://storefront.example/wp-json/wc/v3/orders/${"x".repeat(120)}`;
    await ui.api.ctx.prisma.syncError.create({ data: { source: "tracking", message: `storefront_a unreachable at ${unbroken}` } });
    await ui.api.ctx.prisma.operatorAlert.create({
      data: { alert_key: `dispute-alert.${"y".repeat(80)}.${Date.now()}`, subject: `Dispute ${"z".repeat(60)}`, text: "", status: "undelivered", reason: unbroken, last_error: `SMTP refused ${unbroken}` },
    });
    for (const path of ["tickets", "snapshots", "chat", "settings", "orders", "operations?kind=order&key=none", "notifications", "disputes", "sync-runs", "reports", "managed-sites"]) {
      await page.goto(`${ui.api.url}/console/${path}`);
      expect(await page.evaluate("document.documentElement.scrollWidth"), path).toBeLessThanOrEqual(375);
    }
    // The keyboard reaches everything in order: the skip link first, then the sections, then the bell.
    await page.goto(`${ui.api.url}/console/snapshots`);
    const focused: string[] = [];
    for (let i = 0; i < 16; i += 1) {
      await page.keyboard.press("Tab");
      focused.push(String(await page.evaluate("document.activeElement.getAttribute('aria-label') || document.activeElement.textContent.trim()")));
    }
    expect(focused).toEqual(["Skip to content", "Console", "Snapshots", "Tickets", "Assistant", "Settings", "Operations", "Orders", "Disputes", "Sites", "Sync runs", "Items", "Merchant accounts", "Reports", "Managed sites", "Notifications, 0 unread"]);
    await page.keyboard.press("Enter");
    await page.waitForURL(`${ui.api.url}/console/notifications`);
  }, 60_000);

  it("every page passes the accessibility check at 1280 px and 375 px: sign-in, refusal, each section, a ticket, an order, an error", async () => {
    const ticket = await ticketWithSnapshots("Checkout down", [{ urgency: "HIGH", urgency_percentage: 60 }]);
    const order = await ui.api.ctx.prisma.order.findFirst({ select: { id: true } });
    for (const width of [1280, 375]) {
      const context = await ui.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.goto(`${ui.api.url}/console/login`);
      await expectAccessible(page, `login at ${width}`);
      await signIn(page, ui.api.url, await consoleUser(ui.api, ["staff"]));
      await page.goto(`${ui.api.url}/console/settings`);
      await expectAccessible(page, `refusal at ${width}`);
      await page.context().clearCookies();
      await signIn(page, ui.api.url, await consoleUser(ui.api, ["staff", "manage_options", "manage_middleware"], newTicketId()));
      const paths = ["snapshots", "chat", "settings", "operations", "operations?kind=case&key=none", "orders", "notifications", `tickets/${ticket.number}`, "no-such-page"];
      if (order) paths.push(`orders/${order.id}`);
      for (const path of paths) {
        await page.goto(`${ui.api.url}/console/${path}`);
        await expectAccessible(page, `${path} at ${width}`);
      }
    }
  }, 120_000);
});

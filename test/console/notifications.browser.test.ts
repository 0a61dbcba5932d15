import { describe, expect, it } from "vitest";
import { RECORD_NOTIFICATIONS } from "../support/browser.ts";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { newTicketId } from "../support/tickets.ts";

const ui = useConsole();


describe("notifications", () => {
  it("counts a CRITICAL alert on the bell as it arrives, shows it as a desktop notification once, and clears when read", async () => {
    const staffId = newTicketId();
    const ticketId = newTicketId();
    await ui.api.ctx.prisma.ticket.create({ data: { id: ticketId, number: String(ticketId), subject: "Checkout down", status: "open", opened_at: new Date() } });
    const context = await ui.newContext();
    await context.grantPermissions(["notifications"], { origin: ui.api.url });
    await context.addInitScript(RECORD_NOTIFICATIONS);
    const page = await context.newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["staff"], staffId));
    await page.goto(`${ui.api.url}/console/snapshots`);
    await expect.poll(() => page.getAttribute("#bell", "aria-label")).toBe("Notifications, 0 unread");
    expect(await page.isVisible("#bell-count")).toBe(false);

    // What the CRITICAL alert's browser channel writes for each recipient.
    await ui.api.ctx.prisma.staffNotification.create({ data: { staff_id: staffId, ticket_id: ticketId, kind: "critical", title: `CRITICAL: ticket #${ticketId}`, body: "Checkout down (92%)" } });
    await expect.poll(() => page.textContent("#bell-count"), { timeout: 15_000 }).toBe("1");
    expect(await page.getAttribute("#bell", "aria-label")).toBe("Notifications, 1 unread");
    await expect.poll(() => page.evaluate("window.__shown")).toEqual([`CRITICAL: ticket #${ticketId}`]);

    // Another page opens the stream again: the count stays, the desktop notification is not repeated.
    await page.click("#bell");
    await page.waitForURL(`${ui.api.url}/console/notifications`);
    await expect.poll(() => page.textContent("#bell-count"), { timeout: 15_000 }).toBe("1");
    expect(await page.evaluate("window.__shown")).toEqual([]);
    expect(await page.textContent("#notifications")).toContain(`CRITICAL: ticket #${ticketId}`);
    expect(await page.getAttribute(`#notifications a`, "href")).toBe(`/console/tickets/${ticketId}`);

    await page.getByRole("button", { name: "Mark all read" }).click();
    await page.waitForURL(`${ui.api.url}/console/notifications`);
    await expect.poll(() => page.getAttribute("#bell", "aria-label")).toBe("Notifications, 0 unread");
    expect(await page.isVisible("#bell-count")).toBe(false);
  }, 90_000);

  it("asks for the permission once, on the first click", async () => {
    const context = await ui.newContext();
    await context.addInitScript(`{
      window.__asked = 0;
      Object.defineProperty(Notification, "permission", { get: () => "default" });
      Notification.requestPermission = () => { window.__asked += 1; return Promise.resolve("default"); };
    }`);
    const page = await context.newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["staff"], newTicketId()));
    await page.goto(`${ui.api.url}/console/snapshots`);
    await page.click("h1");
    await page.click("h1");
    expect(await page.evaluate("window.__asked")).toBe(1);
    // The next page (the init script counts from 0 again) does not ask again.
    await page.goto(`${ui.api.url}/console/snapshots`);
    await page.click("h1");
    expect(await page.evaluate("window.__asked")).toBe(0);
  }, 60_000);
});

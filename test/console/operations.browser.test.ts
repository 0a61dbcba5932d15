import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";
import { entrySignal, newTicketId, postSignal, SECURITY_KEY } from "../support/tickets.ts";

const ui = useConsole();

beforeAll(async () => {
  await seedItems(ui.api.ctx.prisma, ["SKU-A", "SHIPPING"]);
  await ui.api.ctx.options.set({ ai_security_key: SECURITY_KEY });
});
afterAll(async () => {
  await ui.api?.ctx.options.set({ ai_security_key: null });
});

describe("operators' page", () => {
  it("shows the /stats numbers and the queues by state, and finds an order's export job by its number with a link into Bull Board", async () => {
    const site = await createSiteWithKey(ui.api.ctx.prisma);
    const number = `C${process.pid % 10000}-${Date.now() % 100000}`;
    const intake = await fetch(`${ui.api.url}/middleware/v1/external/orders`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": site.key }, body: JSON.stringify(orderBody(number)) });
    expect(intake.status).toBe(201);

    const page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["manage_middleware"]));
    expect(new URL(page.url()).pathname).toBe("/console/operations");
    expect(Number(await page.textContent("#stat-pending-insert"))).toBeGreaterThanOrEqual(1);
    const ordersRow = page.locator("#queue-counts tbody tr", { has: page.locator("th", { hasText: /^orders$/ }) });
    expect(await ordersRow.count()).toBe(1);
    const waiting = Number(await ordersRow.locator('td[data-state="waiting"]').textContent()) + Number(await ordersRow.locator('td[data-state="prioritized"]').textContent());
    expect(waiting).toBeGreaterThanOrEqual(1);

    await page.selectOption("#job-kind", "order");
    await page.fill("#job-key", number);
    await page.keyboard.press("Enter");
    await page.waitForURL(/key=/);
    const row = page.locator("#found-jobs tbody tr", { hasText: `Export order ${number}` });
    expect(await row.count()).toBe(1);
    expect(["waiting", "prioritized"]).toContain(await row.locator(".job-state").textContent());
    const order = await ui.api.ctx.prisma.order.findFirstOrThrow({ where: { number, site_id: site.siteId } });
    expect(await row.locator("code").textContent()).toBe(`order-export.${order.id}`);

    await row.getByRole("link", { name: /Open/ }).click();
    await page.waitForURL(`${ui.api.url}/admin/queues/queue/orders/order-export.${order.id}`);
    expect(await page.title()).toBe("Middleware queues");
  }, 90_000);

  it("finds a ticket's urgency analysis job by the ticket number, and says when a key has none", async () => {
    const ticketId = newTicketId();
    expect((await postSignal(ui.api, entrySignal(ticketId, "M", "The shop is down"))).status).toBeLessThan(300);
    const page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["manage_middleware"]));
    await page.goto(`${ui.api.url}/console/operations?kind=ticket&key=${String(ticketId).padStart(6, "0")}`);
    expect(await page.locator("#found-jobs tbody code").allTextContents()).toContain(`urgency.${ticketId}`);

    await page.goto(`${ui.api.url}/console/operations?kind=case&key=no-such-case`);
    expect(await page.textContent("#found-jobs tbody")).toContain("No job of this key is in the queues");
  }, 60_000);
});

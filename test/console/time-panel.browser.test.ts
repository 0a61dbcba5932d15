import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeHarvest, type FakeProject } from "../fakes/harvest.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { expectAccessible } from "../support/axe.ts";
import { launchBrowser } from "../support/browser.ts";
import { consoleContexts, consoleUser, signIn } from "../support/console.ts";
import { newTicketId } from "../support/tickets.ts";
import { enableTimeTracking, TIME_OPTIONS } from "../support/timetracking.ts";

let api: TestApi;
let browser: Browser;
let harvest: FakeHarvest;
let project: FakeProject;
const newContext = consoleContexts(() => browser);

beforeAll(async () => {
  harvest = await new FakeHarvest().start();
  api = await startApi({ HARVEST_ID_URL: harvest.url, HARVEST_API_URL: harvest.url });
  browser = await launchBrowser();
  // The rules engine writes the optimised note: no model in this test.
  await enableTimeTracking(api, harvest, { "time_api.note_ai_enabled": false });
  project = harvest.addProject({ name: "Checkout work", budget: 10 });
});
afterAll(async () => {
  await api?.ctx.options.set(Object.fromEntries(TIME_OPTIONS.map((name) => [name, null])));
  await browser?.close();
  await api?.close();
  await harvest?.stop();
});

async function ticketOnProject(overrides: Record<string, unknown> = {}): Promise<number> {
  const id = newTicketId();
  await api.ctx.prisma.ticket.create({ data: { id, number: String(id), subject: "Checkout down", status: "open", opened_at: new Date(), time_project_id: project.id, budget_hours: 10, quoted_hours: 8, hours_used: 2.5, ...overrides } });
  return id;
}

describe("time panel on a ticket", () => {
  it("connects to Harvest, runs a timer with a ticking clock, optimises the note, stops and logs, logs a manual entry, disconnects", async () => {
    const ticketId = await ticketOnProject();
    const context = await newContext();
    const page = await context.newPage();
    await signIn(page, api.url, await consoleUser(api, ["staff"], newTicketId()));
    await page.goto(`${api.url}/console/tickets/${ticketId}`);
    expect(await page.textContent("#time-panel")).toContain("Used 2.5 h of 10 h budget, quoted 8 h.");

    await page.locator("#time-connect-button").waitFor();
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#time-connect-button")]);
    await popup.waitForLoadState();
    expect(await popup.textContent("h1")).toBe("Connected to Harvest");
    await expect.poll(() => page.textContent("#time-status"), { timeout: 15_000 }).toBe("Connected to Harvest as Sam Staff.");

    await page.click("#timer-start");
    await expect.poll(() => page.textContent("#time-status")).toBe("Timer started.");
    expect(await page.isVisible("#timer-stop")).toBe(true);
    expect(await page.isVisible("#timer-start")).toBe(false);
    await expectAccessible(page, "the time panel with a running timer");
    const running = harvest.entries.find((entry) => entry.project.id === project.id && entry.is_running);
    expect(running).toBeDefined();
    await expect.poll(() => page.textContent("#timer-clock"), { timeout: 5_000 }).not.toBe("0:00:00");

    await page.fill("#manual-notes", "I looked at the server logs and then I restarted the payment worker so checkout works again");
    await page.click("#optimise-note");
    await expect.poll(() => page.inputValue("#manual-notes")).not.toContain("I looked at");
    const optimised = await page.inputValue("#manual-notes");
    expect(optimised.split(/\s+/).length).toBeLessThanOrEqual(8);

    await page.click("#timer-stop");
    await expect.poll(() => page.textContent("#time-status")).toMatch(/^Timer stopped: [\d.]+ h logged\.$/);
    expect(harvest.entries.find((entry) => entry.id === running!.id)).toMatchObject({ is_running: false, notes: optimised });
    expect(await page.isVisible("#timer-start")).toBe(true);
    expect(await page.isVisible("#timer-stop")).toBe(false);

    await page.fill("#manual-hours", "1.5");
    await page.fill("#manual-notes", "Checkout fix review");
    await page.click("#manual-entry button[type=submit]");
    await expect.poll(() => page.textContent("#time-status")).toBe("1.5 h logged.");
    expect(harvest.entries.some((entry) => entry.project.id === project.id && entry.hours === 1.5 && entry.notes === "Checkout fix review")).toBe(true);

    await page.click("#time-disconnect");
    await page.locator("#time-connect-button").waitFor();
    expect(await page.isVisible("#time-controls")).toBe(false);
  }, 90_000);

  it("says reconnect when Harvest revoked the connection, and reconnects from the panel", async () => {
    const ticketId = await ticketOnProject();
    const staffId = newTicketId();
    const context = await newContext();
    const page = await context.newPage();
    await signIn(page, api.url, await consoleUser(api, ["staff"], staffId));
    await page.goto(`${api.url}/console/tickets/${ticketId}`);
    const connect = async () => {
      const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#time-connect-button")]);
      await popup.waitForLoadState();
      await expect.poll(() => page.textContent("#time-status"), { timeout: 15_000 }).toBe("Connected to Harvest as Sam Staff.");
      // The panel opens its named window again next time: closed, the next connect opens a new page.
      await popup.close();
    };
    await connect();

    // Harvest refuses the refresh of a token about to expire: the staff member revoked the app.
    await api.ctx.prisma.staffOauthConnection.update({ where: { staff_id: staffId }, data: { token_expires_at: new Date(Date.now() + 60_000) } });
    harvest.refreshTokens.clear();
    await page.reload();
    await expect.poll(() => page.textContent("#time-status"), { timeout: 15_000 }).toContain("Your Harvest connection stopped working: reconnect to track time on this ticket.");
    expect(await page.textContent("#time-connect-button")).toBe("Reconnect to Harvest");
    expect(await page.isVisible("#time-controls")).toBe(false);

    await connect();
    expect(await page.isVisible("#time-controls")).toBe(true);
    await context.close();
  }, 90_000);

  it("shows a locked ticket as locked, and the refusal when someone who is not its project manager starts a timer", async () => {
    const ticketId = await ticketOnProject({ locked: true, hours_used: 13 });
    const context = await newContext();
    const page = await context.newPage();
    await signIn(page, api.url, await consoleUser(api, ["staff"], newTicketId()));
    await page.goto(`${api.url}/console/tickets/${ticketId}`);
    expect(await page.textContent("#time-locked")).toContain("locked");
    const [popup] = await Promise.all([context.waitForEvent("page"), page.click("#time-connect-button")]);
    await popup.close();
    await expect.poll(() => page.isVisible("#timer-start"), { timeout: 15_000 }).toBe(true);
    await page.click("#timer-start");
    await expect.poll(() => page.isVisible("#time-message")).toBe(true);
    expect(await page.textContent("#time-message")).toMatch(/locked/i);
  }, 90_000);
});

import { DEFAULT_URGENCY_CRITERIA, OPTIONS } from "@mw/domains/options";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectAccessible } from "../support/axe.ts";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { newTicketId } from "../support/tickets.ts";

const ui = useConsole();

const resetOptions = () => ui.api.ctx.options.set(Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])));

beforeAll(async () => {
  await resetOptions();
});
afterAll(async () => {
  await resetOptions();
});

describe("settings page", () => {
  it("shows a validation message next to each refused field and saves nothing", async () => {
    const page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["manage_options"]));
    await page.goto(`${ui.api.url}/console/settings`);
    expect(await page.locator("legend").allTextContents()).toEqual(expect.arrayContaining(["AI", "Ticket system", "Time tracking"]));
    // The six models are the picker's suggestions.
    expect(await page.locator("#opt-ai_model-models option").count()).toBe(6);

    await page.fill("#opt-ai_rate_limit", "0");
    await page.fill("#opt-ai_model", "gpt-4");
    await page.fill("#opt-ai_cache_ttl", "7200");
    await page.click("#settings > button[type=submit]");
    expect(await page.textContent("#form-errors")).toContain("2 fields need a change");
    expect(await page.textContent("#opt-ai_rate_limit-error")).toMatch(/^ai_rate_limit: /);
    expect(await page.textContent("#opt-ai_model-error")).toContain("must be a Gemini model id");
    expect(await page.getAttribute("#opt-ai_model", "aria-invalid")).toBe("true");
    await expectAccessible(page, "settings with refused fields");
    // What was typed stays in the form to be corrected.
    expect(await page.inputValue("#opt-ai_cache_ttl")).toBe("7200");
    expect(await ui.api.ctx.options.get("ai_cache_ttl")).toBe(3600);
    expect(await ui.api.ctx.options.get("ai_model")).toBe("gemini-2.5-flash");
  }, 60_000);

  it("keeps secrets write-only, and resets the urgency criteria to the default", async () => {
    const page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["manage_options"]));
    await page.goto(`${ui.api.url}/console/settings`);
    await page.fill("#opt-ai_api_key", "AIza-secret-value-123");
    await page.fill("#opt-urgency_criteria", "Only outages count. Everything else is LOW.");
    await page.fill("#opt-urgency_max_per_run", "7");
    // Design 10.8: the ticket source is always on, so it is no checkbox.
    const sources = page.locator("#opt-ai_enabled_sources-field");
    expect(await sources.locator("input[value=ticket]").count()).toBe(0);
    await sources.getByLabel("wiki").uncheck();
    await page.click("#settings > button[type=submit]");
    await page.waitForURL(/saved=4/);
    expect(await page.textContent("#saved")).toBe("Saved 4 settings.");
    expect(await ui.api.ctx.options.get("ai_enabled_sources")).toEqual(["ticket", "site", "docs", "brand"]);
    expect(await page.getAttribute("#opt-ai_api_key", "placeholder")).toBe("set; type to replace");
    expect(await page.content()).not.toContain("AIza-secret-value-123");
    expect(await ui.api.ctx.options.get("ai_api_key")).toBe("AIza-secret-value-123");
    expect(await ui.api.ctx.options.get("urgency_max_per_run")).toBe(7);
    expect(await page.inputValue("#opt-urgency_criteria")).toBe("Only outages count. Everything else is LOW.");

    await page.locator("#opt-urgency_criteria-field").getByRole("button", { name: "Reset to default" }).click();
    await page.waitForURL(/saved=1/);
    expect(await page.inputValue("#opt-urgency_criteria")).toBe(DEFAULT_URGENCY_CRITERIA);
    expect(await ui.api.ctx.options.get("urgency_criteria")).toBe(DEFAULT_URGENCY_CRITERIA);
  }, 60_000);

  it("switching time tracking on shows the time panel on a ticket with a time project", async () => {
    const ticketId = newTicketId();
    await ui.api.ctx.prisma.ticket.create({ data: { id: ticketId, number: String(ticketId), subject: "Budgeted work", status: "open", time_project_id: 9101, budget_hours: 10, opened_at: new Date() } });
    const page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["manage_options", "staff"], newTicketId()));
    await page.goto(`${ui.api.url}/console/tickets/${ticketId}`);
    expect(await page.locator("#time-panel").count()).toBe(0);

    await page.goto(`${ui.api.url}/console/settings`);
    await page.check("#opt-time_api-enabled");
    await page.click("#settings > button[type=submit]");
    await page.waitForURL(/saved=1/);
    expect(await page.isChecked("#opt-time_api-enabled")).toBe(true);

    await page.goto(`${ui.api.url}/console/tickets/${ticketId}`);
    expect(await page.locator("#time-panel h2").textContent()).toBe("Time tracking");
  }, 60_000);
});

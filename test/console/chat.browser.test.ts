import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeGemini } from "../fakes/gemini.ts";
import { expectAccessible } from "../support/axe.ts";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { newTicketId } from "../support/tickets.ts";

const PROVIDER_KEY = "AIzaFAKE-console-chat-7d21";
const gemini = new FakeGemini(PROVIDER_KEY);
beforeAll(async () => {
  await gemini.start();
});
const ui = useConsole(() => ({ AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY, AI_RETRY_BASE_MS: "10" }));
beforeEach(() => gemini.reset());
afterAll(() => gemini.stop());

/** The last streamed answer the API asked the model for. */
const lastAnswerCall = () => gemini.calls.filter((call) => call.body.contents).at(-1)!;

async function mirroredTicket(subject: string): Promise<string> {
  const id = newTicketId();
  await ui.api.ctx.prisma.ticket.create({
    data: { id, number: String(id), subject, status: "open", opened_at: new Date(), entries: { create: { id, type: "M", poster_name: "Ann Lee", poster_type: "User", body: `${subject}, please help`, format: "text", posted_at: new Date() } } },
  });
  return String(id);
}

async function staffPage() {
  const page = await (await ui.newContext()).newPage();
  await signIn(page, ui.api.url, await consoleUser(ui.api, ["staff"], newTicketId()));
  return page;
}

describe("assistant chat", () => {
  it("shows the answer arriving token by token, as text, with cited tickets as links, and lists the conversation", async () => {
    const cited = await mirroredTicket("Refund for a double charge");
    gemini.script({ pieces: ["The card was charged twice ", `<img src=x onerror="window.__injected = true">; see #${cited} `, "for the refund."], intervalMs: 700 });
    const page = await staffPage();
    await page.goto(`${ui.api.url}/console/chat`);
    await page.fill("#chat-message", "Why was the customer charged twice?");
    await page.keyboard.press("Enter");

    const answer = page.locator("#messages li.assistant .text").last();
    // The first piece is on the page while the rest is still on its way.
    await expect.poll(() => answer.textContent(), { timeout: 15_000 }).toBe("The card was charged twice ");
    expect(await page.isVisible("#chat-stop")).toBe(true);
    await expect.poll(() => answer.textContent(), { timeout: 15_000 }).toBe(`The card was charged twice <img src=x onerror="window.__injected = true">; see #${cited} for the refund.`);
    expect(await page.evaluate("window.__injected")).toBeUndefined();
    const link = page.locator("#messages li.assistant .cited a");
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`/console/tickets/${cited}`);
    await expect.poll(() => page.isVisible("#chat-stop")).toBe(false);
    await expect.poll(() => page.locator("#conversations a").count()).toBe(1);
    expect(new URL(page.url()).searchParams.get("c")).toMatch(/^\d+$/);

    // The conversation reopens with both messages, and can be deleted.
    await page.reload();
    await expect.poll(() => page.locator("#messages li").count()).toBe(2);
    await expectAccessible(page, "a reopened conversation");
    page.once("dialog", (dialog) => dialog.accept());
    await page.click("#chat-delete");
    await expect.poll(() => page.locator("#conversations a").count()).toBe(0);
    expect(await page.locator("#messages li").count()).toBe(0);
  }, 90_000);

  it("asks about the ticket it was opened from, and the stop button cancels the answer", async () => {
    const viewed = await mirroredTicket("Confirmation e-mail never arrives");
    const page = await staffPage();
    await page.goto(`${ui.api.url}/console/tickets/${viewed}`);
    await page.click("#ask-assistant");
    await page.waitForURL(`${ui.api.url}/console/chat?ticket=${viewed}`);
    expect(await page.textContent("#chat-context")).toContain(`ticket #${viewed}`);

    gemini.script({ pieces: Array.from({ length: 40 }, (_, i) => `piece ${i} `), intervalMs: 200 });
    await page.fill("#chat-message", "Summarise this ticket");
    await page.click("#chat-send");
    const answer = page.locator("#messages li.assistant").last();
    await expect.poll(() => answer.locator(".text").textContent(), { timeout: 15_000 }).toContain("piece 0");
    expect(JSON.stringify(lastAnswerCall().body)).toContain("Confirmation e-mail never arrives");
    await page.click("#chat-stop");
    await expect.poll(() => answer.textContent()).toContain("(stopped: this answer was not kept)");
    expect(await answer.locator(".text").textContent()).not.toContain("piece 39");
    expect(await page.isEnabled("#chat-send")).toBe(true);
    // Nothing was stored: no conversation appears.
    expect(await page.locator("#conversations a").count()).toBe(0);
  }, 90_000);
});

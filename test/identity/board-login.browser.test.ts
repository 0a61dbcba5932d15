import { createUser, setLoginPassword } from "@mw/domains/identity";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { launchBrowser } from "../support/browser.ts";

let api: TestApi;
let browser: Browser;

beforeAll(async () => {
  api = await startApi();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await api.close();
});

describe("Bull Board in a real browser", () => {
  it("sends a browser to the sign-in page, then renders the queues with nothing fetched from outside this host", async () => {
    const login = uniqueLogin("operator");
    await createUser(api.ctx, { login, capabilities: ["manage_middleware"] });
    await setLoginPassword(api.ctx, login, "correct horse battery");
    const context = await browser.newContext();
    const page = await context.newPage();
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      if (!request.url().startsWith(api.url)) elsewhere.push(request.url());
    });

    await page.goto(`${api.url}/admin/queues`);
    expect(new URL(page.url()).pathname).toBe("/login");

    await page.fill("#login-name", login);
    await page.fill("#password", "wrong password");
    await page.click("button[type=submit]");
    await expect.poll(() => page.textContent("#error"), { timeout: 10_000 }).toBe("Invalid login or password.");

    await page.fill("#password", "correct horse battery");
    await page.click("button[type=submit]");
    await page.waitForURL(`${api.url}/admin/queues`);
    await page.getByText("notifications", { exact: false }).first().waitFor({ timeout: 15_000 });
    expect(await page.title()).toBe("Middleware queues");
    expect(elsewhere).toEqual([]);
    await context.close();
  }, 60_000);

  it("after signing in goes to this platform's board, never to the host a tab-folded next names", async () => {
    const login = uniqueLogin("nexttab");
    await createUser(api.ctx, { login, capabilities: ["manage_middleware"] });
    await setLoginPassword(api.ctx, login, "correct horse battery");
    const context = await browser.newContext();
    const page = await context.newPage();
    const elsewhere: string[] = [];
    await context.route("**/*", (route) => {
      if (route.request().url().startsWith(api.url)) return route.continue();
      elsewhere.push(route.request().url());
      return route.abort();
    });

    // What /login?next=/%09/evil.example hands the page: a tab the URL parser drops, leaving //evil.example.
    await page.goto(`${api.url}/login?next=/%09/evil.example`);
    await page.fill("#login-name", login);
    await page.fill("#password", "correct horse battery");
    await page.click("button[type=submit]");
    await page.waitForURL((url) => url.pathname !== "/login" || url.origin !== api.url, { timeout: 15_000 });
    expect(page.url()).toBe(`${api.url}/admin/queues`);
    expect(elsewhere).toEqual([]);
    await context.close();
  }, 60_000);

  it("keeps the Basic challenge for scripts", async () => {
    const res = await fetch(`${api.url}/admin/queues`, { headers: { accept: "application/json" } });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Basic /);
  });

  it("redirects a page navigation without a session to the sign-in page with where it was headed", async () => {
    const res = await fetch(`${api.url}/admin/queues/queue/orders?status=failed`, { headers: { accept: "text/html" }, redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/login?next=${encodeURIComponent("/admin/queues/queue/orders?status=failed")}`);
  });

  it("shows a signed-in staff member without manage_middleware a page naming it; JSON clients keep the JSON error", async () => {
    const login = uniqueLogin("staffonly");
    await createUser(api.ctx, { login, capabilities: ["staff"] });
    await setLoginPassword(api.ctx, login, "correct horse battery");
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${api.url}/login?next=/admin/queues`);
    await page.fill("#login-name", login);
    await page.fill("#password", "correct horse battery");
    const [answer] = await Promise.all([page.waitForResponse((res) => new URL(res.url()).pathname === "/admin/queues"), page.click("button[type=submit]")]);
    expect(answer.status()).toBe(403);
    expect(await page.textContent("#lacking")).toMatch(/needs the capability manage_middleware, which your user .+ does not hold/);
    const json = await context.request.get(`${api.url}/admin/queues`, { headers: { accept: "application/json" } });
    expect(json.status()).toBe(403);
    expect(json.headers()["content-type"]).toMatch(/^application\/json/);
    await context.close();
  }, 60_000);
});

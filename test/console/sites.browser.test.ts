import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeStorefrontB } from "../fakes/storefront-b.ts";
import { userWith } from "../support/api.ts";
import { expectAccessible } from "../support/axe.ts";
import { consoleUser, signIn, useConsole } from "../support/console.ts";
import { orderBody, seedItems } from "../support/fixtures.ts";

// The sites, API keys, items and merchant accounts pages read side by side
// with the REST answers they stand for, each action done through the page.
const ui = useConsole();
const RUN = `${process.pid}x${Date.now() % 100000}`;
let shop: FakeStorefrontB;
let admin: string;
let operator: string;

beforeAll(async () => {
  shop = await new FakeStorefrontB().start();
  admin = await userWith(ui.api, "manage_middleware");
  operator = await consoleUser(ui.api, ["manage_middleware"]);
});

afterAll(async () => {
  await shop.stop();
});

async function rest<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${ui.api.url}/middleware/v1${path}`, { ...init, headers: { authorization: admin, ...(init.body ? { "content-type": "application/json" } : {}) } });
  expect(res.status, path).toBeLessThan(300);
  return (await res.json()) as T;
}

async function operatorPage(width = 1280): Promise<Page> {
  const page = await (await ui.newContext({ viewport: { width, height: 900 } })).newPage();
  await signIn(page, ui.api.url, operator);
  return page;
}

const cells = (page: Page, selector: string) => page.locator(selector).allTextContents();
const trimmed = (texts: string[]) => texts.map((text) => text.trim());

interface SiteRow {
  id: number;
  name: string;
  is_active: boolean;
  orders_sync: boolean;
  inventory_sync: boolean;
  tracking_sync: boolean;
  order_last_run: string | null;
  inventory_last_run: string | null;
  tracking_last_run: string | null;
}

/** The site list as the page shows it, in GET /sites's terms. */
async function listedSites(page: Page) {
  const rows = page.locator("#sites tbody tr[data-site-id]");
  const found = [];
  for (let i = 0; i < (await rows.count()); i += 1) {
    const row = rows.nth(i);
    const text = async (selector: string) => ((await row.locator(selector).textContent()) ?? "").trim();
    const never = (value: string) => (value === "never" ? null : value);
    found.push({
      id: Number(await row.getAttribute("data-site-id")),
      name: await text(".site-link"),
      status: await text(".site-status"),
      syncs: await text(".site-syncs"),
      order_last_run: never(await text(".site-order-run")),
      inventory_last_run: never(await text(".site-inventory-run")),
      tracking_last_run: never(await text(".site-tracking-run")),
    });
  }
  return found;
}

const siteInRestTerms = (site: SiteRow) => ({
  id: site.id,
  name: site.name,
  status: site.is_active ? "active" : "inactive",
  syncs: [site.orders_sync && "orders", site.inventory_sync && "inventory", site.tracking_sync && "tracking"].filter(Boolean).join(", ") || "none",
  order_last_run: site.order_last_run,
  inventory_last_run: site.inventory_last_run,
  tracking_last_run: site.tracking_last_run,
});

for (const width of [1280, 375]) {
  describe("sites", () => {
    it(`adds a site through the form, tests its connection, switches a sync off, deactivates it, and lists what GET /sites and /sync-runs answer, at ${width} px`, async () => {
      const page = await operatorPage(width);
      await page.goto(`${ui.api.url}/console/sites`);
      await expectAccessible(page, "sites");
      await page.click("#add-site");
      await expectAccessible(page, "add a site");

      // A refused form keeps what was typed and says why; nothing is created.
      const before = (await rest<SiteRow[]>("/sites")).length;
      await page.fill("#s-name", `Console shop ${RUN} ${width}`);
      await page.selectOption("#s-platform", "storefront_b");
      await page.fill("#s-url", "ftp://not-a-store");
      await page.click("#site-form button[type=submit]");
      expect(await page.textContent("#form-errors")).toContain("site_url: must be an http or https URL");
      expect(await page.inputValue("#s-name")).toBe(`Console shop ${RUN} ${width}`);
      await expectAccessible(page, "refused site form");
      expect(await rest<SiteRow[]>("/sites")).toHaveLength(before);

      await page.fill("#s-url", shop.url);
      await page.fill("#s-key", shop.consumerKey);
      await page.fill("#s-secret", shop.consumerSecret);
      await page.click("#site-form button[type=submit]");
      await page.waitForURL(/\/console\/sites\/\d+\?created=1$/);
      const id = Number(new URL(page.url()).pathname.split("/").at(-1));
      expect(await page.textContent("#notice")).toBe("Site created.");
      const stored = await rest<Record<string, unknown>>(`/sites/${id}`);
      expect(stored).toMatchObject({ name: `Console shop ${RUN} ${width}`, platform: "storefront_b", site_url: shop.url, api_credentials: { client_id: shop.consumerKey, access_token: "********" } });
      // The token is never sent back to the browser.
      expect(await page.content()).not.toContain(shop.consumerSecret);
      await expectAccessible(page, "site");

      await page.click("#test-connection");
      expect(await page.textContent("#tested")).toBe(`Connected to ${shop.url}.`);
      expect(shop.requests.some((request) => request.url === "/wp-json/wc/v3/system_status")).toBe(true);

      await page.uncheck("#s-tracking");
      await page.click("#site-form button[type=submit]");
      await page.waitForURL(/saved=1/);
      expect(await rest<Record<string, unknown>>(`/sites/${id}`)).toMatchObject({ orders_sync: true, inventory_sync: true, tracking_sync: false, api_credentials: { client_id: shop.consumerKey } });
      expect(await page.isChecked("#s-tracking")).toBe(false);

      // Last runs: a failed and a completed one, as GET /sync-runs?site_id= has them.
      await ui.api.ctx.prisma.syncRun.create({ data: { site_id: id, kind: "inventory", status: "failed", error: "storefront refused the credentials (401)", started_at: new Date(Date.now() - 60_000), finished_at: new Date(Date.now() - 58_000) } });
      await ui.api.ctx.prisma.syncRun.create({ data: { site_id: id, kind: "tracking", status: "completed", counts: { created: 2, skipped: 1 }, started_at: new Date(Date.now() - 30_000), finished_at: new Date(Date.now() - 29_000) } });
      await page.goto(`${ui.api.url}/console/sites/${id}`);
      const { sync_runs: runs, total } = await rest<{ sync_runs: { id: number; kind: string; state: string; outcome: string }[]; total: number }>(`/sync-runs?site_id=${id}`);
      expect(total).toBe(2);
      expect(await page.textContent("#run-total")).toBe("2 runs, newest first");
      const runIds = await page.locator("#runs tbody tr[data-run-id]").evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-run-id"))));
      expect(runIds).toEqual(runs.map((run) => run.id));
      expect(trimmed(await cells(page, "#runs .run-outcome"))).toEqual(runs.map((run) => run.outcome));
      expect(trimmed(await cells(page, "#runs .run-state"))).toEqual(runs.map((run) => run.state));

      await page.click("#toggle-status");
      await page.waitForURL(/toggled=1/);
      expect(await page.textContent("#notice")).toBe("Site deactivated.");
      expect(await rest<Record<string, unknown>>(`/sites/${id}`)).toMatchObject({ is_active: false });

      // The list, all and filtered, equals GET /sites at the same moment.
      for (const active of ["", "0", "1"]) {
        await page.goto(`${ui.api.url}/console/sites${active ? `?active=${active}` : ""}`);
        const restRows = await rest<SiteRow[]>(`/sites${active ? `?active=${active}` : ""}`);
        expect(await listedSites(page), `active=${active}`).toEqual(restRows.map(siteInRestTerms));
        expect(await page.textContent("#site-total")).toBe(`${restRows.length} site${restRows.length === 1 ? "" : "s"}, by name`);
      }
      expect((await listedSites(page)).some((site) => site.id === id)).toBe(false);
      await page.goto(`${ui.api.url}/console/sites?active=0`);
      const listed = (await listedSites(page)).find((site) => site.id === id);
      expect(listed).toMatchObject({ status: "inactive", syncs: "orders, inventory", tracking_last_run: expect.any(String) });
    }, 120_000);

    it(`creates an API key shown once that order intake accepts, lists keys as GET /sites/{id}/api-keys does, and revokes one so intake refuses it, at ${width} px`, async () => {
      await seedItems(ui.api.ctx.prisma, ["SKU-A", "SHIPPING"]);
      const { id } = await rest<{ id: number }>("/sites", { method: "POST", body: JSON.stringify({ name: `Keyed ${RUN} ${width}`, platform: "storefront_b", site_url: shop.url, api_key: "ck", api_secret: "cs" }) });
      const page = await operatorPage(width);
      await page.goto(`${ui.api.url}/console/sites/${id}`);
      await page.click("#keys-link");
      await page.waitForURL(`${ui.api.url}/console/sites/${id}/api-keys`);
      await expectAccessible(page, "API keys");

      await page.fill("#k-label", "ERP");
      await page.click("#create-key");
      const secret = await page.inputValue("#new-key-value");
      expect(secret).toMatch(/^mwk_/);
      expect(await page.textContent("#new-key")).toContain("it cannot be shown again");
      await expectAccessible(page, "new API key");
      const intake = (key: string) => fetch(`${ui.api.url}/middleware/v1/external/orders`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(orderBody(`K-${RUN}-${Math.random().toString(36).slice(2, 8)}`)) });
      expect((await intake(secret)).status).toBe(201);

      // Shown once: the list never carries it.
      await page.goto(`${ui.api.url}/console/sites/${id}/api-keys`);
      expect(await page.content()).not.toContain(secret);
      const { api_keys: keys, total } = await rest<{ api_keys: { id: number; label: string; key_prefix: string; revoked_at: string | null }[]; total: number }>(`/sites/${id}/api-keys`);
      expect(await page.textContent("#key-total")).toBe(`${total} key${total === 1 ? "" : "s"}, newest first`);
      expect(trimmed(await cells(page, "#keys .key-label"))).toEqual(keys.map((key) => key.label));
      expect(trimmed(await cells(page, "#keys .key-prefix"))).toEqual(keys.map((key) => key.key_prefix));

      await page.locator(`#keys tr[data-key-id="${keys[0]!.id}"] button.revoke`).click();
      await page.waitForURL(/revoked=1/);
      expect(await page.textContent("#notice")).toBe("API key revoked.");
      const after = await rest<{ api_keys: { id: number; revoked_at: string | null }[] }>(`/sites/${id}/api-keys`);
      expect(after.api_keys[0]!.revoked_at).not.toBeNull();
      expect(trimmed(await cells(page, "#keys .key-revoked"))).toEqual(after.api_keys.map((key) => key.revoked_at ?? ""));
      expect((await intake(secret)).status).toBe(401);
    }, 120_000);
  });

  describe("items", () => {
    it(`searches and pages the catalogue as GET /items does, imports a CSV pasted or chosen as a file, and a bad CSV changes nothing, at ${width} px`, async () => {
      const prefix = `CI${RUN}w${width}`;
      await seedItems(ui.api.ctx.prisma, Array.from({ length: 23 }, (_, n) => `${prefix}-${String(n).padStart(2, "0")}`));
      const page = await operatorPage(width);
      const listed = async (query: string) => {
        await page.goto(`${ui.api.url}/console/items?${query}`);
        return page.locator("#items tbody tr[data-item-id]").evaluateAll((rows) =>
          rows.map((row) => ({ sku: row.querySelector(".item-sku")!.textContent, name: row.querySelector(".item-name")!.textContent, price: Number(row.querySelector(".item-price")!.textContent), stock: Number(row.querySelector(".item-stock")!.textContent) })),
        );
      };
      const restItems = async (query: string) => {
        const answer = await rest<{ items: { sku: string; name: string; price: number; stock: number }[]; total: number; total_pages: number }>(`/items?${query}`);
        return { ...answer, items: answer.items.map(({ sku, name, price, stock }) => ({ sku, name, price, stock })) };
      };
      const first = await restItems(`search=${prefix}`);
      expect(first.total).toBe(23);
      expect(await listed(`search=${prefix}`)).toEqual(first.items);
      expect(await page.textContent("#item-total")).toBe("23 items, by SKU");
      expect(await page.textContent(".pager")).toContain("Page 1 of 2");
      await expectAccessible(page, "items");
      await page.click('.pager a[rel="next"]');
      await page.waitForURL(/page=2/);
      expect(new URL(page.url()).searchParams.get("search")).toBe(prefix);
      expect(await listed(`search=${prefix}&page=2`)).toEqual((await restItems(`search=${prefix}&page=2`)).items);

      // Pasted: one new SKU, one updated.
      await page.goto(`${ui.api.url}/console/items`);
      await page.fill("#csv", `sku,name,price,stock\n${prefix}-00,Renamed mug,12.5,7\n${prefix}-new,New tee,19.9,40\n`);
      await page.click("#import-submit");
      await page.waitForURL(/created=1&updated=1/);
      expect(await page.textContent("#imported")).toBe("Imported: 1 new, 1 updated.");
      expect((await restItems(`search=${prefix}-00`)).items).toEqual([{ sku: `${prefix}-00`, name: "Renamed mug", price: 12.5, stock: 7 }]);

      // A bad row: the page names it, keeps the text, and nothing changes.
      await page.fill("#csv", `sku,name,price,stock\n${prefix}-01,Fine,1,1\n${prefix}-02,Bad,not a price,1\n`);
      await page.click("#import-submit");
      expect(await page.textContent("#import-errors")).toContain("row 3: price:");
      expect(await page.inputValue("#csv")).toContain(`${prefix}-02,Bad`);
      await expectAccessible(page, "refused import");
      expect((await restItems(`search=${prefix}-01`)).items[0]!.name).toBe(`Item ${prefix}-01`);

      // Chosen as a file: read into the form and posted the same way.
      await page.goto(`${ui.api.url}/console/items`);
      await page.setInputFiles("#csv-file", { name: "items.csv", mimeType: "text/csv", buffer: Buffer.from(`sku,name,price,stock\n${prefix}-file,From a file,3,9\n`) });
      await page.waitForFunction("document.getElementById('csv').value.includes('From a file')");
      await page.click("#import-submit");
      await page.waitForURL(/created=1&updated=0/);
      expect((await restItems(`search=${prefix}-file`)).items).toEqual([{ sku: `${prefix}-file`, name: "From a file", price: 3, stock: 9 }]);
    }, 120_000);
  });

  describe("merchant accounts", () => {
    it(`adds an account (its key never shown), refuses a duplicate MID with the API's message, lists as GET /merchant-accounts does, and deletes, at ${width} px`, async () => {
      const mid = `77${width}${process.pid}${Date.now() % 10000}`;
      const page = await operatorPage(width);
      await page.goto(`${ui.api.url}/console/merchant-accounts`);
      await expectAccessible(page, "merchant accounts");
      await page.fill("#m-mid", `00${mid}`);
      await page.fill("#m-name", "Main MID");
      await page.fill("#m-key", "gateway-secret-key-91");
      await page.click("#add-merchant-submit");
      await page.waitForURL(/done=added/);
      expect(await page.textContent("#notice")).toBe("Merchant account added.");
      expect(await page.content()).not.toContain("gateway-secret-key-91");

      const answer = await rest<{ merchant_accounts: { id: number; mid: string; name: string | null }[]; total: number }>("/merchant-accounts");
      expect(await page.textContent("#merchant-total")).toBe(`${answer.total} account${answer.total === 1 ? "" : "s"}, by MID`);
      expect(trimmed(await cells(page, "#merchants .merchant-mid"))).toEqual(answer.merchant_accounts.map((row) => row.mid));
      expect(trimmed(await cells(page, "#merchants .merchant-name"))).toEqual(answer.merchant_accounts.map((row) => row.name ?? ""));
      const added = answer.merchant_accounts.find((row) => row.mid === mid)!;
      expect(added.name).toBe("Main MID");

      await page.fill("#m-mid", mid);
      await page.fill("#m-key", "another");
      await page.click("#add-merchant-submit");
      expect(await page.textContent("#form-errors")).toContain(`A merchant account for MID ${mid} already exists.`);
      await expectAccessible(page, "refused merchant form");

      await page.goto(`${ui.api.url}/console/merchant-accounts`);
      await page.locator(`#merchants tr[data-merchant-id="${added.id}"] button.delete`).click();
      await page.waitForURL(/done=deleted/);
      expect((await rest<{ merchant_accounts: { id: number }[] }>("/merchant-accounts?per_page=100")).merchant_accounts.some((row) => row.id === added.id)).toBe(false);
    }, 120_000);
  });
}

describe("a site's runs", () => {
  it("pages the runs 20 at a time as GET /sync-runs?site_id= does, also from the answer of a failed connection test", async () => {
    const { id } = await rest<{ id: number }>("/sites", { method: "POST", body: JSON.stringify({ name: `Busy ${RUN}`, platform: "storefront_b", site_url: shop.url, api_key: "ck_wrong", api_secret: "cs_wrong" }) });
    const start = Date.now() - 3_600_000;
    await ui.api.ctx.prisma.syncRun.createMany({ data: Array.from({ length: 22 }, (_, n) => ({ site_id: id, kind: "tracking", status: "completed", counts: { created: n }, started_at: new Date(start + n * 60_000), finished_at: new Date(start + n * 60_000 + 1000) })) });
    const page = await operatorPage();
    await page.goto(`${ui.api.url}/console/sites/${id}`);
    await page.click("#test-connection");
    expect(await page.textContent("#tested")).toMatch(/^Connection failed: /);
    expect(await page.textContent("#run-total")).toBe("22 runs, newest first");
    await page.click('.pager a[rel="next"]');
    await page.waitForURL(`${ui.api.url}/console/sites/${id}?page=2`);
    const { sync_runs: second } = await rest<{ sync_runs: { id: number }[] }>(`/sync-runs?site_id=${id}&page=2`);
    const shown = await page.locator("#runs tbody tr[data-run-id]").evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-run-id"))));
    expect(shown).toEqual(second.map((run) => run.id));
    expect(shown).toHaveLength(2);
  }, 60_000);
});

describe("who may open them", () => {
  it("tells a staff member each page needs manage_middleware, and refuses their posts alike", async () => {
    const page = await (await ui.newContext()).newPage();
    await signIn(page, ui.api.url, await consoleUser(ui.api, ["staff"]));
    const { siteId } = { siteId: (await rest<SiteRow[]>("/sites"))[0]?.id ?? 1 };
    for (const path of ["sites", "sites/new", `sites/${siteId}`, `sites/${siteId}/api-keys`, "items", "merchant-accounts"]) {
      const res = await page.goto(`${ui.api.url}/console/${path}`);
      expect(res?.status(), path).toBe(403);
      expect(await page.textContent("#lacking"), path).toContain("manage_middleware");
      await expectAccessible(page, `refusal of ${path}`);
    }
    // The nav offers none of them to staff.
    expect(await page.locator('nav[aria-label="Sections"] a[href="/console/sites"]').count()).toBe(0);
    const nonce = await page.getAttribute('meta[name="mw-nonce"]', "content");
    const before = await rest<{ total: number }>("/merchant-accounts");
    const res = await page.context().request.post(`${ui.api.url}/console/merchant-accounts`, { form: { nonce: nonce!, mid: "999", security_key: "x" } });
    expect(res.status()).toBe(403);
    expect(await res.text()).toContain("manage_middleware");
    expect((await rest<{ total: number }>("/merchant-accounts")).total).toBe(before.total);
  }, 60_000);

  it("fits 375 px and passes the accessibility check there", async () => {
    const { id } = await rest<{ id: number }>("/sites", { method: "POST", body: JSON.stringify({ name: `Narrow ${RUN} ${"w".repeat(60)}`, platform: "storefront_b", site_url: `${shop.url}/${"long-path-".repeat(12)}`, api_key: "ck", api_secret: "cs" }) });
    const page = await operatorPage(375);
    for (const path of ["sites", "sites/new", `sites/${id}`, `sites/${id}/api-keys`, "items", "merchant-accounts"]) {
      await page.goto(`${ui.api.url}/console/${path}`);
      expect(await page.evaluate("document.documentElement.scrollWidth"), path).toBeLessThanOrEqual(375);
      await expectAccessible(page, `${path} at 375 px`);
    }
  }, 60_000);
});

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createUser } from "@mw/domains/identity";
import { randomToken, USER_AGENT } from "@mw/platform";
import { storeHashOf, storefrontABaseUrl } from "@mw/providers/storefront-a";
import { openCredentials } from "@mw/domains/sites";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeStorefrontA } from "../fakes/storefront-a.ts";
import { FakeStorefrontB } from "../fakes/storefront-b.ts";
import { basicAuth, closedPort, expectAdminOnly, restCall, startApi, uniqueLogin, type TestApi } from "../support/api.ts";

const ROOT = "/middleware/v1";
const RUN = randomToken(6).toLowerCase().replace(/[^a-z0-9]/g, "x");
// Distinct, greppable secrets: the log check below looks for each of them.
const CLIENT_A = `bc_client_${randomToken(12)}`;
const TOKEN_A = `bc_token_${randomToken(12)}`;
const FRAUD_KEY = `fraud_${randomToken(12)}`;
const WEBHOOK_SECRET = `whsec_${randomToken(12)}`;
const STORE_HASH = `h${RUN}`;

let api: TestApi;
let admin: string;
let staff: string;
const fakeA = new FakeStorefrontA();
const fakeB = new FakeStorefrontB();

beforeAll(async () => {
  api = await startApi();
  const adminUser = await createUser(api.ctx, { login: uniqueLogin("sitesadmin"), capabilities: ["manage_middleware"] });
  admin = basicAuth(adminUser.login, adminUser.application_password);
  const staffUser = await createUser(api.ctx, { login: uniqueLogin("sitesstaff"), capabilities: ["staff"] });
  staff = basicAuth(staffUser.login, staffUser.application_password);
  await fakeA.start();
  await fakeB.start();
  fakeA.addStore({ hash: STORE_HASH, accessToken: TOKEN_A, clientId: CLIENT_A, name: "Fake Outfitters" });
});
afterAll(async () => {
  await fakeA.stop();
  await fakeB.stop();
  await api.close();
});

function call(method: string, route: string, body?: unknown, authorization: string | null = admin) {
  return restCall(`${api.url}${ROOT}${route}`, method, body, authorization);
}

function siteA(overrides: Record<string, unknown> = {}) {
  return {
    name: `Outfitters ${RUN}`,
    platform: "storefront_a",
    site_url: "https://outfitters.example",
    api_key: CLIENT_A,
    api_secret: TOKEN_A,
    api_base_url: fakeA.baseUrl(STORE_HASH),
    ...overrides,
  };
}

function siteB(overrides: Record<string, unknown> = {}) {
  return {
    name: `Woo ${RUN}`,
    platform: "storefront_b",
    site_url: fakeB.url,
    api_key: fakeB.consumerKey,
    api_secret: fakeB.consumerSecret,
    ...overrides,
  };
}

async function createSite(body: Record<string, unknown>): Promise<number> {
  const res = await call("POST", "/sites", body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

describe("access", () => {
  it("answers 403 rest_forbidden without credentials and without manage_middleware, on every site route", async () => {
    const routes: [string, string][] = [
      ["GET", "/sites"],
      ["GET", "/sites/1"],
      ["POST", "/sites"],
      ["PUT", "/sites/1"],
      ["DELETE", "/sites/1"],
      ["POST", "/sites/1/toggle-status"],
      ["POST", "/sites/1/test-connection"],
      ["GET", "/carrier-mappings"],
      ["PUT", "/carrier-mappings"],
      ["DELETE", "/carrier-mappings/1"],
    ];
    await expectAdminOnly(`${api.url}${ROOT}`, routes, staff);
  });
});

describe("create and read", () => {
  it("creates a site (201 {id, message}) with the credentials and secrets encrypted at rest", async () => {
    const res = await call("POST", "/sites", siteA({ fraud_team_id: "team-7", fraud_api_key: FRAUD_KEY, webhook_secret: WEBHOOK_SECRET }));
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), message: "Site created." });
    const id = res.body.id as number;

    const [raw] = await api.ctx.prisma.$queryRaw<{ api_credentials: string; fraud_api_key: string; webhook_secret: string }[]>`
      SELECT api_credentials, fraud_api_key, webhook_secret FROM sites WHERE id = ${id}`;
    const stored = JSON.stringify(raw);
    for (const secret of [CLIENT_A, TOKEN_A, FRAUD_KEY, WEBHOOK_SECRET]) expect(stored).not.toContain(secret);
    expect(raw!.api_credentials).toMatch(/^v1:/);
    expect(openCredentials(raw!.api_credentials, api.ctx.config.ENCRYPTION_KEY)).toEqual({ client_id: CLIENT_A, access_token: TOKEN_A });
  });

  it("returns one site with its client id and settings, the token masked and never the other secrets", async () => {
    const id = await createSite(siteA({ fraud_team_id: "team-7", fraud_api_key: FRAUD_KEY, status_filters: " 9, 3 ,11 ", channel_filter: { channel_id: 2, name: "Amazon" } }));
    const res = await call("GET", `/sites/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id,
      name: `Outfitters ${RUN}`,
      platform: "storefront_a",
      site_url: "https://outfitters.example",
      api_credentials: { client_id: CLIENT_A, access_token: "********" },
      is_active: true,
      orders_sync: false,
      inventory_sync: false,
      tracking_sync: false,
      tracking_enabled: false,
      health_check_url: null,
      status_filters: "9,3,11",
      auto_complete: true,
      send_customer_email: true,
      channel_filter: { channel_id: 2, name: "Amazon" },
      out_of_stock_threshold: 0,
      fraud_team_id: "team-7",
      fraud_api_key_set: true,
      webhook_secret_set: false,
      api_base_url: fakeA.baseUrl(STORE_HASH),
      order_volume_window_hours: 24,
      order_volume_min: 1,
    });
    for (const secret of [FRAUD_KEY, TOKEN_A]) expect(JSON.stringify(res.body)).not.toContain(secret);
  });

  it("answers 404 rest_not_found for an unknown id and 400 rest_invalid_param for a non-integer one", async () => {
    const missing = await call("GET", "/sites/2147483000");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: "rest_not_found", message: "Site not found.", data: { status: 404 } });
    for (const bad of ["abc", "1.5", "0"]) {
      const invalid = await call("GET", `/sites/${bad}`);
      expect(invalid.status, bad).toBe(400);
      expect(invalid.body).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): id" });
    }
  });

  it("lists sites as a bare array of list fields ordered by name, without any secret", async () => {
    const names = [`List ${RUN} b`, `List ${RUN} A`, `List ${RUN} c`];
    const ids: number[] = [];
    for (const name of names) ids.push(await createSite(siteA({ name, fraud_api_key: FRAUD_KEY, webhook_secret: WEBHOOK_SECRET })));
    const lastRun = new Date(Date.UTC(2026, 2, 4, 5, 6, 7, 890));
    await api.ctx.prisma.site.update({ where: { id: ids[0]! }, data: { order_last_run: lastRun, inventory_last_run: lastRun } });

    const res = await call("GET", "/sites");
    expect(res.status).toBe(200);
    expect(Array.isArray(res.body)).toBe(true);
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    const rows = (res.body as unknown as Record<string, unknown>[]).filter((row) => ids.includes(row.id as number));
    expect(rows.map((row) => row.name)).toEqual([`List ${RUN} A`, `List ${RUN} b`, `List ${RUN} c`]);
    expect(rows[1]).toEqual({
      id: ids[0],
      name: `List ${RUN} b`,
      platform: "storefront_a",
      site_url: "https://outfitters.example",
      is_active: true,
      orders_sync: false,
      inventory_sync: false,
      tracking_sync: false,
      tracking_enabled: false,
      order_last_run: "2026-03-04 05:06:07",
      inventory_last_run: "2026-03-04 05:06:07",
      tracking_last_run: null,
    });
    expect(rows[0]!.order_last_run).toBeNull();
    const text = JSON.stringify(res.body);
    for (const secret of [CLIENT_A, TOKEN_A, FRAUD_KEY, WEBHOOK_SECRET, "api_credentials", "fraud_api_key", "webhook_secret"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("gives the order page its active sites with a 5-minute private cache", async () => {
    const active = await createSite(siteA({ name: `Active ${RUN}` }));
    const inactive = await createSite(siteA({ name: `Inactive ${RUN}`, is_active: false }));
    const res = await call("GET", "/sites?active=1");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, max-age=300");
    const ids = (res.body as unknown as { id: number; is_active: boolean }[]).map((row) => row.id);
    expect(ids).toContain(active);
    expect(ids).not.toContain(inactive);
    expect((res.body as unknown as { is_active: boolean }[]).every((row) => row.is_active)).toBe(true);
    const inactiveOnly = await call("GET", "/sites?active=0");
    expect((inactiveOnly.body as unknown as { id: number }[]).map((row) => row.id)).toContain(inactive);
    expect((await call("GET", "/sites?active=yes")).body).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): active" });
  });
});

describe("validation", () => {
  it("names the missing or invalid field", async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...siteA(), name: undefined }, "rest_missing_callback_param", "name"],
      [{ ...siteA(), api_secret: undefined }, "rest_missing_callback_param", "api_secret"],
      [siteA({ platform: "storefront_c" }), "rest_invalid_param", "platform"],
      [siteA({ site_url: "ftp://outfitters.example" }), "rest_invalid_param", "site_url"],
      [siteA({ site_url: "not a url" }), "rest_invalid_param", "site_url"],
      [siteA({ health_check_url: "javascript:alert(1)" }), "rest_invalid_param", "health_check_url"],
      [siteA({ status_filters: "9,x" }), "rest_invalid_param", "status_filters"],
      [siteA({ status_filters: "" }), "rest_invalid_param", "status_filters"],
      [siteA({ out_of_stock_threshold: -1 }), "rest_invalid_param", "out_of_stock_threshold"],
      [siteA({ out_of_stock_threshold: 1.5 }), "rest_invalid_param", "out_of_stock_threshold"],
      [siteA({ is_active: "yes" }), "rest_invalid_param", "is_active"],
      [siteA({ channel_filter: { channel_id: "2", name: "Amazon" } }), "rest_invalid_param", "channel_filter.channel_id"],
      [siteA({ fraud_api_key: "" }), "rest_invalid_param", "fraud_api_key"],
      [siteA({ api_key: "  " }), "rest_invalid_param", "api_key"],
      [siteA({ site_url: "https://www.custom-domain.example", api_base_url: undefined }), "rest_invalid_param", "api_base_url"],
    ];
    for (const [body, code, field] of cases) {
      const res = await call("POST", "/sites", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
      expect(res.body.message, JSON.stringify(body)).toMatch(new RegExp(`parameter\\(s\\): ${field.replace(".", "\\.")}$`));
    }
  });

  it("derives a storefront_a API base from a store-<hash> control-panel URL, else takes api_base_url without its version", () => {
    expect(storeHashOf("https://store-abc123.mybigcommerce.com/manage")).toBe("abc123");
    expect(storeHashOf("https://valiant-demo.mybigcommerce.com")).toBeNull();
    expect(storefrontABaseUrl({ site_url: "https://store-abc123.mybigcommerce.com", api_base_url: null })).toBe("https://api.bigcommerce.com/stores/abc123");
    expect(storefrontABaseUrl({ site_url: "https://shop.example", api_base_url: "https://api.bigcommerce.com/stores/xyz/v3/" })).toBe("https://api.bigcommerce.com/stores/xyz");
    expect(storefrontABaseUrl({ site_url: "https://shop.example", api_base_url: null })).toBeNull();
  });

  it("accepts a storefront_a site whose URL names the store hash, and any storefront_b site, without api_base_url", async () => {
    await createSite(siteA({ site_url: "https://store-abc123.mybigcommerce.com", api_base_url: undefined }));
    await createSite(siteB());
  });
});

describe("update", () => {
  it("changes only the fields sent; one credential half keeps the other", async () => {
    const id = await createSite(siteA({ fraud_api_key: FRAUD_KEY, health_check_url: "https://hc.example/ping", out_of_stock_threshold: 3 }));
    const res = await call("PUT", `/sites/${id}`, { name: `Renamed ${RUN}`, tracking_sync: true, api_secret: `${TOKEN_A}-rotated` });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: "Site updated." });
    const site = (await call("GET", `/sites/${id}`)).body;
    expect(site).toMatchObject({
      name: `Renamed ${RUN}`,
      tracking_sync: true,
      orders_sync: false,
      health_check_url: "https://hc.example/ping",
      out_of_stock_threshold: 3,
      fraud_api_key_set: true,
      api_credentials: { client_id: CLIENT_A, access_token: "********" },
    });
    const row = await api.ctx.prisma.site.findUniqueOrThrow({ where: { id } });
    expect(openCredentials(row.api_credentials!, api.ctx.config.ENCRYPTION_KEY)).toEqual({ client_id: CLIENT_A, access_token: `${TOKEN_A}-rotated` });
  });

  it("keeps the stored token when a form sends back the mask it was shown", async () => {
    const id = await createSite(siteA());
    const res = await call("PUT", `/sites/${id}`, { name: `Masked ${RUN}`, api_key: CLIENT_A, api_secret: "********" });
    expect(res.status).toBe(200);
    const row = await api.ctx.prisma.site.findUniqueOrThrow({ where: { id } });
    expect(openCredentials(row.api_credentials!, api.ctx.config.ENCRYPTION_KEY)).toEqual({ client_id: CLIENT_A, access_token: TOKEN_A });
  });

  it("clears nullable settings and secrets with null, and sets a secret with a string", async () => {
    const id = await createSite(siteA({ fraud_api_key: FRAUD_KEY, health_check_url: "https://hc.example/ping", channel_filter: { channel_id: 1, name: "Web" } }));
    expect((await call("PUT", `/sites/${id}`, { fraud_api_key: null, health_check_url: null, channel_filter: null, webhook_secret: WEBHOOK_SECRET })).status).toBe(200);
    const site = (await call("GET", `/sites/${id}`)).body;
    expect(site).toMatchObject({ fraud_api_key_set: false, webhook_secret_set: true, health_check_url: null, channel_filter: null });
    const row = await api.ctx.prisma.site.findUniqueOrThrow({ where: { id } });
    expect(row.fraud_api_key).toBeNull();
    expect(row.webhook_secret).not.toContain(WEBHOOK_SECRET);
  });

  it("drops the credentials when the site's API moves to another host without the secret given again, so the new host never gets the token", async () => {
    const other = await new FakeStorefrontB().start();
    try {
      const moved = await createSite(siteB());
      expect((await call("PUT", `/sites/${moved}`, { site_url: `${fakeB.url}/shop` })).status).toBe(200);
      expect((await call("GET", `/sites/${moved}`)).body).toMatchObject({ api_credentials: { client_id: fakeB.consumerKey } });
      expect((await call("PUT", `/sites/${moved}`, { site_url: other.url })).status).toBe(200);
      expect((await call("GET", `/sites/${moved}`)).body).toMatchObject({ site_url: other.url, api_credentials: null });
      expect((await call("POST", `/sites/${moved}/test-connection`)).body).toMatchObject({ success: false, message: "Connection failed: the site has no API credentials" });
      expect(other.requests).toEqual([]);

      const reentered = await createSite(siteB());
      expect((await call("PUT", `/sites/${reentered}`, { site_url: other.url, api_key: other.consumerKey, api_secret: other.consumerSecret })).status).toBe(200);
      expect((await call("POST", `/sites/${reentered}/test-connection`)).body).toMatchObject({ success: true });

      // storefront_a sends its token to the API base: a new site_url alone keeps it, a new api_base_url drops it.
      const storeA = await createSite(siteA());
      expect((await call("PUT", `/sites/${storeA}`, { site_url: "https://renamed-outfitters.example" })).status).toBe(200);
      expect((await call("GET", `/sites/${storeA}`)).body).toMatchObject({ api_credentials: { client_id: CLIENT_A } });
      expect((await call("PUT", `/sites/${storeA}`, { api_base_url: `${other.url}/stores/${STORE_HASH}` })).status).toBe(200);
      expect((await call("GET", `/sites/${storeA}`)).body).toMatchObject({ api_credentials: null });
    } finally {
      await other.stop();
    }
  });

  it("refuses bad values, an unknown site and removing the only store reference", async () => {
    const id = await createSite(siteA({ site_url: "https://shop.custom.example" }));
    expect((await call("PUT", `/sites/${id}`, { status_filters: "9;3" })).body).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): status_filters" });
    expect((await call("PUT", `/sites/${id}`, { api_key: null })).body).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): api_key" });
    expect((await call("PUT", `/sites/${id}`, { api_base_url: null })).body).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): api_base_url" });
    const missing = await call("PUT", "/sites/2147483000", { name: "x" });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe("rest_not_found");
    expect((await call("GET", `/sites/${id}`)).body).toMatchObject({ api_base_url: fakeA.baseUrl(STORE_HASH), status_filters: "9,3" });
  });
});

describe("toggle-status and delete", () => {
  it("flips is_active and says which way", async () => {
    const id = await createSite(siteA());
    const off = await call("POST", `/sites/${id}/toggle-status`);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ success: true, is_active: false, message: "Site deactivated." });
    expect((await api.ctx.prisma.site.findUniqueOrThrow({ where: { id } })).is_active).toBe(false);
    expect((await call("POST", `/sites/${id}/toggle-status`)).body).toEqual({ success: true, is_active: true, message: "Site activated." });
    expect((await call("POST", "/sites/2147483000/toggle-status")).status).toBe(404);
  });

  it("deletes a site without orders (its API keys go with it) and refuses one with orders with 409", async () => {
    const id = await createSite(siteA());
    await api.ctx.prisma.siteApiKey.create({ data: { site_id: id, label: "erp", key_hash: randomToken(32).slice(0, 64).padEnd(64, "0"), key_prefix: "mwk_test" } });
    const order = await api.ctx.prisma.order.create({
      data: {
        site_id: id,
        number: `S${RUN}`.slice(0, 20),
        dateadded: new Date(),
        payment_method: "pay_1",
        contact_id: 27111,
        shipping_agent_code: "FEDEX",
        shipping_agent_service: "GROUND_HOME_DELIVERY",
        payload_hash: "0".repeat(64),
      },
    });

    const refused = await call("DELETE", `/sites/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      code: "rest_site_has_orders",
      message: "The site has 1 order(s) and cannot be deleted; deactivate it instead.",
      data: { status: 409, orders: 1 },
    });
    expect(await api.ctx.prisma.site.count({ where: { id } })).toBe(1);

    await api.ctx.prisma.order.delete({ where: { id: order.id } });
    const deleted = await call("DELETE", `/sites/${id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true, message: "Site deleted." });
    expect((await call("GET", `/sites/${id}`)).status).toBe(404);
    expect(await api.ctx.prisma.siteApiKey.count({ where: { site_id: id } })).toBe(0);
    expect((await call("DELETE", `/sites/${id}`)).status).toBe(404);
  });
});

describe("test-connection", () => {
  it("storefront_a: reads the store profile with the stored token and reports its name", async () => {
    const id = await createSite(siteA());
    fakeA.requests.length = 0;
    const res = await call("POST", `/sites/${id}/test-connection`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: "Connected to Fake Outfitters.",
      details: { platform: "storefront_a", store_name: "Fake Outfitters", api_version: "v2" },
    });
    expect(fakeA.requests).toHaveLength(1);
    const [request] = fakeA.requests;
    expect(request).toMatchObject({ method: "GET", url: `/stores/${STORE_HASH}/v2/store` });
    expect(request!.headers).toMatchObject({ "x-auth-token": TOKEN_A, "x-auth-client": CLIENT_A, accept: "application/json", "user-agent": USER_AGENT });
  });

  it("storefront_a: a token the store refuses gives success false with the storefront's reason", async () => {
    const id = await createSite(siteA({ api_secret: "not-the-token" }));
    const res = await call("POST", `/sites/${id}/test-connection`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      message: "Connection failed: storefront_a answered HTTP 401: No valid credentials were found in this request",
      details: { platform: "storefront_a", store_name: null, api_version: null },
    });
  });

  it("storefront_a: an unreachable API host gives success false naming the network error", async () => {
    const id = await createSite(siteA({ api_base_url: `http://127.0.0.1:${await closedPort()}/stores/${STORE_HASH}` }));
    const res = await call("POST", `/sites/${id}/test-connection`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: false,
      message: "Connection failed: storefront_a request failed: ECONNREFUSED",
      details: { platform: "storefront_a", store_name: null, api_version: null },
    });
  });

  it("storefront_b: reads the system status with HTTP Basic keys and reports the site and WooCommerce version", async () => {
    const id = await createSite(siteB({ site_url: `${fakeB.url}/` }));
    fakeB.requests.length = 0;
    const res = await call("POST", `/sites/${id}/test-connection`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: `Connected to ${fakeB.url}.`,
      details: { platform: "storefront_b", store_name: fakeB.url, api_version: "9.4.2" },
    });
    expect(fakeB.requests).toHaveLength(1);
    const [request] = fakeB.requests;
    expect(request).toMatchObject({ method: "GET", url: "/wp-json/wc/v3/system_status" });
    expect(request!.headers.authorization).toBe(basicAuth(fakeB.consumerKey, fakeB.consumerSecret));
    expect(request!.headers["user-agent"]).toBe(USER_AGENT);
  });

  it("storefront_b: a wrong secret or an unknown key gives success false with WooCommerce's reason", async () => {
    const badSecret = await createSite(siteB({ api_secret: "cs_wrong" }));
    expect((await call("POST", `/sites/${badSecret}/test-connection`)).body).toEqual({
      success: false,
      message: "Connection failed: storefront_b answered HTTP 401: Consumer secret is invalid. (woocommerce_rest_authentication_error)",
      details: { platform: "storefront_b", store_name: null, api_version: null },
    });
    const badKey = await createSite(siteB({ api_key: "ck_unknown" }));
    expect((await call("POST", `/sites/${badKey}/test-connection`)).body).toMatchObject({
      success: false,
      message: "Connection failed: storefront_b answered HTTP 401: Consumer key is invalid. (woocommerce_rest_authentication_error)",
    });
  });

  it("storefront_b: an unreachable site gives success false", async () => {
    const id = await createSite(siteB({ site_url: `http://127.0.0.1:${await closedPort()}` }));
    expect((await call("POST", `/sites/${id}/test-connection`)).body).toEqual({
      success: false,
      message: "Connection failed: storefront_b request failed: ECONNREFUSED",
      details: { platform: "storefront_b", store_name: null, api_version: null },
    });
  });

  it("reports a site without credentials, or with credentials the key cannot open, as a failed connection", async () => {
    const bare = await api.ctx.prisma.site.create({ data: { name: `Bare ${RUN}`, platform: "storefront_b", site_url: fakeB.url } });
    expect((await call("POST", `/sites/${bare.id}/test-connection`)).body).toMatchObject({ success: false, message: "Connection failed: the site has no API credentials" });
    expect((await call("GET", `/sites/${bare.id}`)).body).toMatchObject({ api_credentials: null });

    const id = await createSite(siteB());
    await api.ctx.prisma.site.update({ where: { id }, data: { api_credentials: "v1:AAAA:BBBB:CCCC" } });
    const tested = await call("POST", `/sites/${id}/test-connection`);
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ success: false, message: expect.stringContaining("cannot be decrypted") });
    const read = await call("GET", `/sites/${id}`);
    expect(read.status).toBe(500);
    expect(read.body).toMatchObject({ code: "credentials_unreadable", data: { status: 500 } });
  });

  it("answers 404 for an unknown site", async () => {
    const res = await call("POST", "/sites/2147483000/test-connection");
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("rest_not_found");
  });
});

describe("test-connection with the egress guard on (ALLOW_PRIVATE_URLS=false)", () => {
  let guarded: TestApi;
  beforeAll(async () => {
    guarded = await startApi({ ALLOW_PRIVATE_URLS: "false" });
  });
  afterAll(async () => {
    await guarded.close();
  });

  const REFUSED = (system: string, host: string, why: string) =>
    `Connection failed: ${system} request failed: the host ${host} was refused: ${why} (addresses inside the network are called only with ALLOW_PRIVATE_URLS=true)`;

  it("refuses a storefront on a local address and never sends it the keys", async () => {
    const id = await createSite(siteB());
    fakeB.requests.length = 0;
    const res = await restCall(`${guarded.url}${ROOT}/sites/${id}/test-connection`, "POST", undefined, admin);
    expect(res.body).toEqual({ success: false, message: REFUSED("storefront_b", "127.0.0.1", "it is a loopback address"), details: { platform: "storefront_b", store_name: null, api_version: null } });
    expect(fakeB.requests).toEqual([]);
  });

  it("refuses an api_base_url whose name resolves to a local address, before the token leaves", async () => {
    const id = await createSite(siteA({ api_base_url: fakeA.baseUrl(STORE_HASH).replace("127.0.0.1", "localhost") }));
    fakeA.requests.length = 0;
    const res = await restCall(`${guarded.url}${ROOT}/sites/${id}/test-connection`, "POST", undefined, admin);
    expect(res.body).toMatchObject({ success: false, message: REFUSED("storefront_a", "localhost", "it resolves to a loopback address") });
    expect(fakeA.requests).toEqual([]);
  });

  it("answers a closed local port exactly as an open one: refused before any connection", async () => {
    const closed = await createSite(siteB({ site_url: `http://127.0.0.1:${await closedPort()}` }));
    const open = await createSite(siteB());
    const messages = await Promise.all([closed, open].map(async (id) => (await restCall(`${guarded.url}${ROOT}/sites/${id}/test-connection`, "POST", undefined, admin)).body.message));
    expect(messages).toEqual([REFUSED("storefront_b", "127.0.0.1", "it is a loopback address"), REFUSED("storefront_b", "127.0.0.1", "it is a loopback address")]);
  });
});

describe("carrier mappings", () => {
  it("has the five default carriers on each platform, lower-case platform codes", async () => {
    for (const platform of ["storefront_a", "storefront_b"]) {
      const res = await call("GET", `/carrier-mappings?platform=${platform}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ total: 5, page: 1, per_page: 20, total_pages: 1 });
      const rows = (res.body.carrier_mappings as { erp_carrier_code: string; platform_carrier_code: string; platform: string }[]).map(
        ({ erp_carrier_code, platform_carrier_code, platform: p }) => [p, erp_carrier_code, platform_carrier_code],
      );
      expect(rows).toEqual(["DHL", "FEDEX", "ONTRAC", "UPS", "USPS"].map((code) => [platform, code, code.toLowerCase()]));
    }
    expect((await call("GET", "/carrier-mappings")).body.total).toBe(10);
    expect((await call("GET", "/carrier-mappings?platform=amazon")).body).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): platform" });
  });

  it("upserts by platform and ERP code, and deletes by id", async () => {
    const changed = await call("PUT", "/carrier-mappings", { platform: "storefront_b", erp_carrier_code: "ups", platform_carrier_code: "UPS Ground" });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      success: true,
      message: "Carrier mapping saved.",
      carrier_mapping: { platform: "storefront_b", erp_carrier_code: "UPS", platform_carrier_code: "UPS Ground" },
    });
    const ups = changed.body.carrier_mapping as { id: number };
    const list = (await call("GET", "/carrier-mappings?platform=storefront_b")).body;
    expect(list.total).toBe(5);
    expect(list.carrier_mappings).toContainEqual({ id: ups.id, platform: "storefront_b", erp_carrier_code: "UPS", platform_carrier_code: "UPS Ground" });
    const storefrontA = (await call("GET", "/carrier-mappings?platform=storefront_a")).body.carrier_mappings as { erp_carrier_code: string; platform_carrier_code: string }[];
    expect(storefrontA.find((row) => row.erp_carrier_code === "UPS")?.platform_carrier_code).toBe("ups");

    const added = await call("PUT", "/carrier-mappings", { platform: "storefront_a", erp_carrier_code: "LSO", platform_carrier_code: "lso" });
    const lso = added.body.carrier_mapping as { id: number };
    expect((await call("GET", "/carrier-mappings?platform=storefront_a")).body.total).toBe(6);
    expect((await call("DELETE", `/carrier-mappings/${lso.id}`)).body).toEqual({ success: true, message: "Carrier mapping deleted." });
    expect((await call("DELETE", `/carrier-mappings/${lso.id}`)).status).toBe(404);

    const invalid = await call("PUT", "/carrier-mappings", { platform: "storefront_a", erp_carrier_code: "X".repeat(21), platform_carrier_code: "x" });
    expect(invalid.body).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): erp_carrier_code" });
    const missing = await call("PUT", "/carrier-mappings", { platform: "storefront_a", erp_carrier_code: "UPS" });
    expect(missing.body).toMatchObject({ code: "rest_missing_callback_param", message: "Missing parameter(s): platform_carrier_code" });

    // Leave the seeded defaults as other test files in this database expect them.
    await call("PUT", "/carrier-mappings", { platform: "storefront_b", erp_carrier_code: "UPS", platform_carrier_code: "ups" });
  });
});

describe("documentation and logs", () => {
  it("documents every route in the OpenAPI document", async () => {
    const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(doc.paths[`${ROOT}/sites`] ?? {}).sort()).toEqual(["get", "post"]);
    expect(Object.keys(doc.paths[`${ROOT}/sites/{id}`] ?? {}).sort()).toEqual(["delete", "get", "put"]);
    expect(doc.paths[`${ROOT}/sites/{id}/toggle-status`]).toHaveProperty("post");
    expect(doc.paths[`${ROOT}/sites/{id}/test-connection`]).toHaveProperty("post");
    expect(Object.keys(doc.paths[`${ROOT}/carrier-mappings`] ?? {}).sort()).toEqual(["get", "put"]);
    expect(doc.paths[`${ROOT}/carrier-mappings/{id}`]).toHaveProperty("delete");
  });

  it("never writes a credential or secret to the log file", async () => {
    const dir = path.resolve(api.ctx.config.LOG_DIR);
    const read = () =>
      readdirSync(dir)
        .filter((name) => name.startsWith("api-test-") && name.endsWith(".log"))
        .map((name) => readFileSync(path.join(dir, name), "utf8"))
        .join("\n");
    // The file transport writes asynchronously: wait for the last line this file's requests produced.
    const deadline = Date.now() + 5000;
    while (!read().includes("Consumer secret is invalid.") && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const text = read();
    expect(text).toContain('"message":"site created"');
    expect(text).toContain("Consumer secret is invalid.");
    for (const secret of [CLIENT_A, TOKEN_A, FRAUD_KEY, WEBHOOK_SECRET, fakeB.consumerKey, fakeB.consumerSecret]) expect(text).not.toContain(secret);
  });
});

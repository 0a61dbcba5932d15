import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createUser } from "@mw/domains/identity";
import { recordSyncError } from "@mw/domains/sites";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";
import { runCli as cli } from "../support/processes.ts";

let api: TestApi;
let auth: { authorization: string };
const ROOT = "/middleware/v1";

beforeAll(async () => {
  api = await startApi();
  const admin = await createUser(api.ctx, { login: uniqueLogin("ordadmin"), capabilities: ["manage_middleware"] });
  auth = { authorization: basicAuth(admin.login, admin.application_password) };
  await seedItems(api.ctx.prisma, ["SKU-A", "SKU-B"]);
});
afterAll(() => api.close());

async function call(method: string, url: string, body?: unknown, headers: Record<string, string> = auth) {
  const res = await fetch(`${api.url}${ROOT}${url}`, {
    method,
    headers: { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & Record<string, never> };
}

describe("site API keys", () => {
  it("shows a key once, lists it without the key, and revokes it at once", async () => {
    const { siteId } = await createSiteWithKey(api.ctx.prisma);
    const created = await call("POST", `/sites/${siteId}/api-keys`, { label: "ERP production" });
    expect(created.status).toBe(201);
    const key = created.body.key as unknown as string;
    expect(key).toMatch(/^mwk_[A-Za-z0-9_-]{43}$/);
    expect(created.body).toMatchObject({ label: "ERP production", key_prefix: key.slice(0, 12), revoked_at: null });

    const stored = await api.ctx.prisma.siteApiKey.findUniqueOrThrow({ where: { id: created.body.id as unknown as number } });
    expect(JSON.stringify(stored)).not.toContain(key);

    const submit = () =>
      fetch(`${api.url}${ROOT}/external/orders`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify(orderBody(`K${Date.now() % 1e9}`, { line_items: [{ line_number: 1, sku: "SKU-A", quantity: 1, unit_price: 1 }] })),
      });
    expect((await submit()).status).toBe(201);

    const list = await call("GET", `/sites/${siteId}/api-keys`);
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(list.body).toMatchObject({ total: 2, page: 1, per_page: 20, total_pages: 1 });
    const row = (list.body.api_keys as unknown as { id: number; label: string; last_used_at: string | null }[])[0]!;
    expect(row.label).toBe("ERP production");
    expect(row.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const revoke = await call("DELETE", `/sites/${siteId}/api-keys/${row.id}`);
    expect(revoke).toEqual({ status: 200, body: { success: true, message: "API key revoked." } });
    const refused = await submit();
    expect(refused.status).toBe(401);
    expect(((await call("GET", `/sites/${siteId}/api-keys`)).body.api_keys as unknown as { revoked_at: string | null }[])[0]!.revoked_at).not.toBeNull();
  });

  it("answers 404 for an unknown site or key and 400 for a missing label", async () => {
    const { siteId } = await createSiteWithKey(api.ctx.prisma);
    expect((await call("POST", "/sites/999999/api-keys", { label: "x" })).status).toBe(404);
    expect((await call("DELETE", `/sites/${siteId}/api-keys/999999`)).status).toBe(404);
    const missing = await call("POST", `/sites/${siteId}/api-keys`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe("rest_missing_callback_param");
  });
});

describe("item catalogue", () => {
  it("upserts by SKU and lists with pagination and search", async () => {
    const sku = `CAT-${Date.now() % 1e9}`;
    const first = await call("POST", "/items", [
      { sku: `${sku}-1`, name: "Blue widget", price: 9.5, stock: 3 },
      { sku: `${sku}-2`, name: "Red widget", price: 1, stock: 0 },
    ]);
    expect(first).toEqual({ status: 200, body: { success: true, created: 2, updated: 0 } });
    const second = await call("POST", "/items", [
      { sku: `${sku}-2`, name: "Red widget v2", price: 2, stock: 7 },
      { sku: `${sku}-3`, name: "Green widget", price: 3, stock: 1 },
    ]);
    expect(second.body).toEqual({ success: true, created: 1, updated: 1 });
    const page = await call("GET", `/items?search=${sku}&per_page=2`);
    expect(page.body).toMatchObject({ total: 3, page: 1, per_page: 2, total_pages: 2 });
    expect((page.body.items as unknown as { sku: string; name: string; price: number; stock: number }[]).map((i) => [i.sku, i.name, i.price, i.stock])).toEqual([
      [`${sku}-1`, "Blue widget", 9.5, 3],
      [`${sku}-2`, "Red widget v2", 2, 7],
    ]);
  });

  it("rejects a bad item naming its position, and changes nothing", async () => {
    const res = await call("POST", "/items", [
      { sku: "OK-1", name: "fine", price: 1, stock: 1 },
      { sku: "BAD-1", name: "no price", stock: 1 },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "rest_missing_callback_param", message: "Missing parameter(s): 1.price" });
    expect(await api.ctx.prisma.item.count({ where: { sku: "OK-1" } })).toBe(0);
  });

  it("imports a CSV file with pnpm cli items:import", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mw-items-"));
    const file = path.join(dir, "items.csv");
    writeFileSync(file, 'SKU,Name,Price,Stock\nCSV-1,First,1.50,3\nCSV-2,"Second, with comma",2,0\n');
    const run = await cli("items:import", file);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim())).toEqual({ success: true, rows: 2, created: 2, updated: 0 });
    const item = await api.ctx.prisma.item.findUniqueOrThrow({ where: { sku: "CSV-2" } });
    expect([item.name, Number(item.price), item.stock]).toEqual(["Second, with comma", 2, 0]);

    writeFileSync(file, "sku,name,price,stock\nCSV-1,Renamed,1,1\nCSV-3,,abc,1\n");
    const bad = await cli("items:import", file);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("row 3");
    expect((await api.ctx.prisma.item.findUniqueOrThrow({ where: { sku: "CSV-1" } })).name).toBe("First");
  });
});

describe("order viewer", () => {
  let siteA: { siteId: number; key: string };
  let siteB: { siteId: number; key: string };
  const tag = `V${process.pid % 1000}`;

  beforeAll(async () => {
    siteA = await createSiteWithKey(api.ctx.prisma, { name: `Alpha ${tag}` });
    siteB = await createSiteWithKey(api.ctx.prisma, { name: `Beta ${tag}` });
    const post = (key: string, body: unknown) =>
      fetch(`${api.url}${ROOT}/external/orders`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
    for (const [key, number, date, method] of [
      [siteA.key, `${tag}-1`, "2026-01-01", "pay_1"],
      [siteA.key, `${tag}-2`, "2026-03-01", "pay_3"],
      [siteB.key, `${tag}-3`, "2026-02-01", "pay_1"],
    ] as const) {
      expect((await post(key, orderBody(number, { date, payment_method: method, transaction_id: `TX${number}` }))).status).toBe(201);
    }
    await api.ctx.prisma.order.updateMany({ where: { number: `${tag}-3` }, data: { imported: 1, erp_sales_order_number: `SO-${tag}-77`, imported_at: new Date() } });
  });

  it("lists newest first with site_name and the page fields", async () => {
    const res = await call("GET", `/orders?search=${tag}`);
    expect(res.body).toMatchObject({ total: 3, page: 1, per_page: 20, total_pages: 1 });
    const rows = res.body.orders as unknown as Record<string, unknown>[];
    expect(rows.map((r) => [r.number, r.site_name, r.dateadded])).toEqual([
      [`${tag}-2`, `Alpha ${tag}`, "2026-03-01 00:00:00"],
      [`${tag}-3`, `Beta ${tag}`, "2026-02-01 00:00:00"],
      [`${tag}-1`, `Alpha ${tag}`, "2026-01-01 00:00:00"],
    ]);
    expect(rows[0]).toMatchObject({ site: siteA.siteId, trans_id: `TX${tag}-2`, imported: 0, verified: 0, ship_status: 0, pay_3: "1", pay_1: "0" });
  });

  it("filters by site, import status, payment method, shipped status and search", async () => {
    const numbers = async (query: string) =>
      ((await call("GET", `/orders?${query}`)).body.orders as unknown as { number: string }[]).map((r) => r.number).filter((n) => n.startsWith(tag));
    expect(await numbers(`site_id=${siteB.siteId}`)).toEqual([`${tag}-3`]);
    expect(await numbers(`search=${tag}&imported=1`)).toEqual([`${tag}-3`]);
    expect(await numbers(`search=${tag}&imported=0`)).toEqual([`${tag}-2`, `${tag}-1`]);
    expect(await numbers(`search=${tag}&payment_method=pay_3`)).toEqual([`${tag}-2`]);
    expect(await numbers(`search=${tag}&ship_status=1`)).toEqual([]);
    expect(await numbers(`search=SO-${tag}-7`)).toEqual([`${tag}-3`]);
    expect(await numbers(`search=TX${tag}-1`)).toEqual([`${tag}-1`]);
    expect(await numbers(`search=${tag}&per_page=1&page=2`)).toEqual([`${tag}-3`]);
    const bad = await call("GET", "/orders?per_page=101");
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("rest_invalid_param");
  });

  it("shows one order with every stored field, lines by line and both addresses", async () => {
    const list = await call("GET", `/orders?search=${tag}-2`);
    const id = (list.body.orders as unknown as { id: number }[])[0]!.id;
    const res = await call("GET", `/orders/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      number: `${tag}-2`,
      site_name: `Alpha ${tag}`,
      contact_id: 27593,
      shipping_agent_code: "FEDEX",
      shipping_agent_service: "GROUND_HOME_DELIVERY",
      trans_id: `TX${tag}-2`,
      payment_method: "pay_3",
    });
    expect((res.body.line_items as unknown as { line: number; sku: string; price: number }[]).map((l) => [l.line, l.sku, l.price])).toEqual([
      [1, "SKU-A", 12.5],
      [2, "SHIPPING", 4.99],
    ]);
    expect((res.body.addresses as unknown as { type: number; email: string; country: string }[]).map((a) => [a.type, a.email, a.country])).toEqual([
      [1, "ada@example.com", "US"],
      [0, "ada@example.com", "US"],
    ]);
    expect((await call("GET", "/orders/99999999")).status).toBe(404);
  });

  it("is for manage_middleware users only", async () => {
    const staff = await createUser(api.ctx, { login: uniqueLogin("ordstaff"), capabilities: ["staff"] });
    expect((await call("GET", "/orders", undefined, { authorization: basicAuth(staff.login, staff.application_password) })).status).toBe(403);
    expect((await call("GET", "/orders", undefined, {})).status).toBe(403);
  });
});

describe("GET /stats", () => {
  it("counts sites, orders by state and recent errors", async () => {
    const before = (await call("GET", "/stats")).body as unknown as {
      sites: Record<string, number>;
      orders: Record<string, number>;
      errors: { count: number; recent: unknown[] };
    };
    const site = await createSiteWithKey(api.ctx.prisma, { platform: "storefront_b", is_active: false });
    const post = (number: string) =>
      fetch(`${api.url}${ROOT}/external/orders`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${site.key}` }, body: JSON.stringify(orderBody(number)) });
    await post(`ST-${process.pid}-1`);
    await post(`ST-${process.pid}-2`);
    await post(`ST-${process.pid}-3`);
    await api.ctx.prisma.order.updateMany({ where: { number: `ST-${process.pid}-2` }, data: { imported: 1, imported_at: new Date() } });
    await api.ctx.prisma.order.updateMany({ where: { number: `ST-${process.pid}-3` }, data: { imported: 1, imported_at: new Date("2020-01-01"), verified: 1 } });
    await recordSyncError(api.ctx, { source: "erp_export", order_number: `ST-${process.pid}-1`, message: "ERP answered HTTP 422: blocked" });

    const after = (await call("GET", "/stats")).body as unknown as typeof before;
    expect(after.sites).toEqual({
      total: before.sites.total! + 1,
      active: before.sites.active,
      storefront_a: before.sites.storefront_a,
      storefront_b: before.sites.storefront_b! + 1,
    });
    expect(after.orders).toEqual({
      pending_insert: before.orders.pending_insert! + 1,
      pending_verify: before.orders.pending_verify! + 1,
      imported_today: before.orders.imported_today! + 1,
    });
    expect(after.errors.count).toBe(before.errors.count + 1);
    expect(after.errors.recent[0]).toEqual({
      order_number: `ST-${process.pid}-1`,
      message: "ERP answered HTTP 422: blocked",
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
  });
});

import { EgressGuard } from "@mw/platform";
import { StorefrontAClient } from "@mw/providers/storefront-a";
import { StorefrontBClient } from "@mw/providers/storefront-b";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeServer, type FakeAnswer } from "../fakes/fake-server.ts";
import { FakeStorefrontA, type FakeStore } from "../fakes/storefront-a.ts";
import { FakeStorefrontB } from "../fakes/storefront-b.ts";
import { failure } from "../support/errors.ts";

// The storefront clients against the fakes, in process: paging, rate limits,
// timeouts and the errors each platform answers.
const USER_AGENT = /^Middleware\/\d+\.\d+\.\d+$/;
/** The fakes listen on 127.0.0.1, as ALLOW_PRIVATE_URLS=true lets them (test/platform/egress.test.ts turns the guard on). */
const egress = new EgressGuard({ allowPrivate: true });

class Hanging extends FakeServer {
  protected override answer(): FakeAnswer {
    return "hang";
  }
}

let fakeA: FakeStorefrontA;
let fakeB: FakeStorefrontB;
let hanging: Hanging;
let storeCounter = 0;

beforeAll(async () => {
  [fakeA, fakeB, hanging] = await Promise.all([new FakeStorefrontA().start(), new FakeStorefrontB().start(), new Hanging().start()]);
});

afterAll(async () => {
  await Promise.all([fakeA.stop(), fakeB.stop(), hanging.stop()]);
});

beforeEach(() => {
  fakeA.requests.length = 0;
  fakeB.reset();
});

function newStore(): FakeStore {
  storeCounter += 1;
  return fakeA.addStore({ hash: `c${storeCounter}`, accessToken: `token-${storeCounter}`, clientId: "client", name: "Client test" });
}

function clientA(store: FakeStore, options: { maxRateLimitWaitMs?: number; accessToken?: string; baseUrl?: string; timeoutMs?: number } = {}): StorefrontAClient {
  return new StorefrontAClient({
    baseUrl: options.baseUrl ?? fakeA.baseUrl(store.hash),
    clientId: store.clientId,
    accessToken: options.accessToken ?? store.accessToken,
    timeoutMs: options.timeoutMs ?? 2000,
    maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? 5000,
    egress,
  });
}

function clientB(options: { consumerSecret?: string; maxRateLimitWaitMs?: number } = {}): StorefrontBClient {
  return new StorefrontBClient({
    siteUrl: fakeB.url,
    consumerKey: fakeB.consumerKey,
    consumerSecret: options.consumerSecret ?? fakeB.consumerSecret,
    timeoutMs: 2000,
    maxRateLimitWaitMs: options.maxRateLimitWaitMs ?? 5000,
    egress,
  });
}

describe("storefront_a client (BigCommerce)", () => {
  it("pages v2 orders 250 at a time, stops at a short page, and takes a 204 past the end as the end", async () => {
    const store = newStore();
    for (let i = 0; i < 501; i += 1) store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    store.addOrder({ status_id: 11, lines: [{ sku: "A", quantity: 1 }] });
    const orders = await clientA(store).listOrders({ statusId: 9, lineItems: true });
    expect(orders).toHaveLength(501);
    expect(orders[0]!.consignments!.shipping![0]!.line_items[0]).toMatchObject({ sku: "A", quantity: 1, quantity_shipped: 0 });
    expect(fakeA.requests.map((r) => [r.query.get("page"), r.query.get("limit"), r.status])).toEqual([
      ["1", "250", 200],
      ["2", "250", 200],
      ["3", "250", 200],
    ]);
    const first = fakeA.requests[0]!;
    expect(Object.fromEntries(first.query)).toMatchObject({ status_id: "9", include: "consignments.line_items", consignment_structure: "object", sort: "id:asc" });
    expect(first.headers["x-auth-token"]).toBe(store.accessToken);
    expect(first.headers["user-agent"]).toMatch(USER_AGENT);

    // Exactly two full pages: the third page is 204 No Content.
    store.orders.delete(orders.at(-1)!.id);
    fakeA.requests.length = 0;
    expect(await clientA(store).listOrders({ statusId: 9, lineItems: false })).toHaveLength(500);
    expect(fakeA.requests.map((r) => r.status)).toEqual([200, 200, 204]);
    expect(await clientA(store).listOrders({ statusId: 3, lineItems: false })).toEqual([]);
  });

  it("pages the v3 catalogue by meta.pagination.total_pages", async () => {
    const store = newStore();
    for (let i = 0; i < 260; i += 1) store.addProduct({ sku: `P-${i}`, variants: [{ sku: `P-${i}-V` }] });
    const products = await clientA(store).listProducts();
    expect(products).toHaveLength(260);
    expect(products[259]).toMatchObject({ sku: "P-259", inventory_tracking: "variant", variants: [{ sku: "P-259-V" }] });
    expect(fakeA.requests.map((r) => r.query.get("page"))).toEqual(["1", "2"]);
  });

  it("waits out 429s for X-Rate-Limit-Time-Reset-Ms, and past its bound fails with a transient upstream_rate_limited", async () => {
    const store = newStore();
    store.throttle = { times: 2, resetMs: 120 };
    const started = Date.now();
    expect(await clientA(store).getStore()).toMatchObject({ id: store.hash });
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(fakeA.requests.map((r) => r.status)).toEqual([429, 429, 200]);

    store.throttle = { times: 5, resetMs: 120 };
    const limited = await failure(clientA(store, { maxRateLimitWaitMs: 300 }).getStore());
    expect(limited.code).toBe("upstream_rate_limited");
    expect(limited.permanent).toBe(false);
    expect(limited.message).toBe("storefront_a is rate limiting: it asked for another 120 ms after 240 ms of waiting");
    expect(limited.data).toEqual({ upstream_status: 429, retry_after_ms: 120 });
  });

  it("gives typed errors: refusals are permanent and carry BigCommerce's message, a hang ends at the timeout", async () => {
    const store = newStore();
    const order = store.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    const denied = await failure(clientA(store, { accessToken: "wrong" }).getStore());
    expect([denied.permanent, denied.message]).toEqual([true, "storefront_a answered HTTP 401: No valid credentials were found in this request"]);

    const tooMany = await failure(
      clientA(store).createShipment(order.id, { order_address_id: order.addresses[0]!, tracking_number: "1Z1", shipping_provider: "", items: [{ order_product_id: order.products[0]!.id, quantity: 2 }] }),
    );
    expect([tooMany.permanent, tooMany.data.upstream_status]).toEqual([true, 400]);
    expect(tooMany.message).toBe(`storefront_a answered HTTP 400: The quantity of order product ${order.products[0]!.id} exceeds the quantity left to ship.`);
    const badCarrier = await failure(
      clientA(store).createShipment(order.id, { order_address_id: order.addresses[0]!, tracking_number: "1Z1", shipping_provider: "", tracking_carrier: "pigeon", items: [{ order_product_id: order.products[0]!.id, quantity: 1 }] }),
    );
    expect(badCarrier.message).toBe("storefront_a answered HTTP 400: The field 'tracking_carrier' is invalid.");
    expect(order.shipments).toEqual([]);

    const started = Date.now();
    const hung = await failure(clientA(store, { baseUrl: hanging.url, timeoutMs: 300 }).getStore());
    expect([hung.code, hung.permanent, hung.message]).toEqual(["upstream_unreachable", false, "storefront_a request failed: ETIMEDOUT"]);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("refuses more than 2000 adjustment items before sending, as BigCommerce would with a 422", async () => {
    const store = newStore();
    const items = Array.from({ length: 2001 }, (_, i) => ({ location_id: 1, variant_id: i + 1, quantity: 1 }));
    await expect(clientA(store).adjustStockAbsolute(items, "test")).rejects.toThrow(RangeError);
    expect(fakeA.requests).toEqual([]);
    const raw = await fetch(`${fakeA.baseUrl(store.hash)}/v3/inventory/adjustments/absolute`, {
      method: "PUT",
      headers: { "x-auth-token": store.accessToken, "content-type": "application/json" },
      body: JSON.stringify({ items }),
    });
    expect(raw.status).toBe(422);
  });
});

describe("storefront_b client (WooCommerce)", () => {
  it("pages orders 100 at a time for as many pages as X-WP-TotalPages says, statuses as a comma list", async () => {
    for (let i = 0; i < 230; i += 1) fakeB.shop.addOrder({ status: i % 2 ? "processing" : "on-hold", lines: [{ sku: "A", quantity: 1 }] });
    fakeB.shop.addOrder({ status: "completed", lines: [{ sku: "A", quantity: 1 }] });
    const orders = await clientB().listOrders(["processing", "on-hold"]);
    expect(orders).toHaveLength(230);
    expect(orders.map((o) => o.id)).toEqual([...orders.map((o) => o.id)].sort((a, b) => a - b));
    expect(fakeB.requests.map((r) => [r.query.get("page"), r.query.get("per_page"), r.query.get("status")])).toEqual([
      ["1", "100", "processing,on-hold"],
      ["2", "100", "processing,on-hold"],
      ["3", "100", "processing,on-hold"],
    ]);
    expect(fakeB.requests[0]!.headers.authorization).toBe(`Basic ${Buffer.from(`${fakeB.consumerKey}:${fakeB.consumerSecret}`).toString("base64")}`);
    // The fake refuses a page size the real API refuses.
    const raw = await fetch(`${fakeB.url}/wp-json/wc/v3/orders?per_page=101`, { headers: { authorization: fakeB.requests[0]!.headers.authorization! } });
    expect(raw.status).toBe(400);
  });

  it("waits out a 429 for its Retry-After, and past its bound fails with a transient upstream_rate_limited", async () => {
    fakeB.shop.throttle = { times: 1, retryAfterSeconds: 1 };
    const started = Date.now();
    expect(await clientB().listOrders(["processing"])).toEqual([]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);

    fakeB.shop.throttle = { times: 1, retryAfterSeconds: 30 };
    const limited = await failure(clientB({ maxRateLimitWaitMs: 5000 }).listOrders(["processing"]));
    expect([limited.code, limited.permanent, limited.data.retry_after_ms]).toEqual(["upstream_rate_limited", false, 30_000]);
  });

  it("answers each item of a batch on its own and refuses more than 100 items before sending", async () => {
    const kept = fakeB.shop.addProduct({ sku: "B-1" });
    expect(await clientB().updateProducts([{ id: kept.id, stock_quantity: 4 }, { id: 999_999, stock_quantity: 1 }])).toEqual([
      { id: kept.id },
      { id: 999_999, error: "Invalid ID. (woocommerce_rest_product_invalid_id)" },
    ]);
    expect(fakeB.shop.stockOf("B-1")).toBe(4);
    const many = Array.from({ length: 101 }, (_, i) => ({ id: i + 1, status: "completed" }));
    await expect(clientB().updateOrders(many)).rejects.toThrow(RangeError);
  });

  it("gives typed errors with WooCommerce's code: a wrong secret, and the tracking routes of an inactive extension", async () => {
    const denied = await failure(clientB({ consumerSecret: "cs_wrong" }).listOrders(["processing"]));
    expect([denied.permanent, denied.message]).toEqual([true, "storefront_b answered HTTP 401: Consumer secret is invalid. (woocommerce_rest_authentication_error)"]);
    const order = fakeB.shop.addOrder({ lines: [{ sku: "A", quantity: 1 }] });
    const missing = await failure(clientB().createTracking(order.id, { tracking_number: "1Z999AA10000000001" }));
    expect(missing.message).toBe("storefront_b answered HTTP 404: No route was found matching the URL and request method. (rest_no_route)");
    fakeB.shop.shipmentTracking = true;
    expect(await clientB().createTracking(order.id, { tracking_number: "1Z999AA10000000001", tracking_provider: "ups" })).toMatchObject({ tracking_number: "1Z999AA10000000001", tracking_provider: "ups" });
  });
});

import { createHash, createHmac } from "node:crypto";
import { createRedis, randomToken } from "@mw/platform";
import { sweepDisputeInbox } from "@mw/domains/disputes";
import { sweepProductInbox } from "@mw/domains/inventory";
import { Worker, type Queue } from "bullmq";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startApi, userWith, type TestApi } from "../support/api.ts";
import { postSite } from "../support/fixtures.ts";

const ROOT = "/middleware/v1";
const RUN = randomToken(6).toLowerCase().replace(/[^a-z0-9]/g, "x");
const WOO_SECRET = `woo_${randomToken(12)}`;
const BC_SECRET = `bc_${randomToken(12)}`;

let api: TestApi;
let inventory: Queue;
let admin: string;
let woo: number;
let bc: number;

beforeAll(async () => {
  api = await startApi();
  inventory = api.ctx.queues.get("inventory");
  admin = await userWith(api, "manage_middleware");
  woo = await createSite({ platform: "storefront_b", webhook_secret: WOO_SECRET });
  bc = await createSite({ platform: "storefront_a", webhook_secret: BC_SECRET, site_url: "https://store-abc123.mybigcommerce.com" });
});
beforeEach(async () => {
  await inventory.obliterate({ force: true });
});
afterAll(() => api.close());

let seq = 0;
function createSite(overrides: Record<string, unknown>): Promise<number> {
  return postSite(api.url, admin, { inventory_sync: true, ...overrides });
}

async function deliver(siteId: number | string, body: string, headers: Record<string, string> = {}, url = api.url) {
  const res = await fetch(`${url}${ROOT}/webhooks/products/${siteId}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function sign(body: string, secret = WOO_SECRET): string {
  return createHmac("sha256", secret).update(body).digest("base64");
}

/** A WooCommerce product.updated delivery: the body is the product (wc/v3), signed over the raw bytes. */
function wooDelivery(product: Record<string, unknown>, options: { topic?: string; delivery?: string; secret?: string } = {}) {
  const body = JSON.stringify({ name: "Hoodie", sku: "HD-1", stock_quantity: 4, parent_id: 0, ...product });
  seq += 1;
  const headers = {
    "x-wc-webhook-source": "https://shop.example/",
    "x-wc-webhook-topic": options.topic ?? "product.updated",
    "x-wc-webhook-resource": "product",
    "x-wc-webhook-event": "updated",
    "x-wc-webhook-id": "12",
    "x-wc-webhook-delivery-id": options.delivery ?? createHash("md5").update(`delivery-${RUN}-${seq}`).digest("hex"),
    "x-wc-webhook-signature": sign(body, options.secret),
  };
  return { body, headers };
}

/** A BigCommerce delivery (`data` holds the resource), with the custom header the hook was registered with. */
function bcDelivery(scope: string, data: Record<string, unknown>, secret = BC_SECRET) {
  seq += 1;
  const body = JSON.stringify({
    scope,
    store_id: "1025646",
    data,
    hash: createHash("sha1").update(`${RUN}-${seq}`).digest("hex"),
    created_at: 1_795_000_000 + seq,
    producer: "stores/abc123",
  });
  return { body, headers: { "x-webhook-secret": secret } };
}

async function rowsOf(siteId: number) {
  return api.ctx.prisma.webhookEvent.findMany({ where: { source: "products", site_id: siteId }, orderBy: { id: "asc" } });
}

async function refreshJobs() {
  return (await inventory.getJobs(["waiting", "active", "delayed"])).map((job) => ({ id: job.id, data: job.data }));
}

describe("storefront_b (WooCommerce)", () => {
  it("stores a correctly signed delivery with its payload hash and queues a refresh of the product", async () => {
    const { body, headers } = wooDelivery({ id: 77 });
    const res = await deliver(woo, body, headers);
    expect(res).toEqual({ status: 202, body: { success: true, message: "Webhook received; the product's stock refresh is queued.", webhook_id: expect.any(Number) } });
    const row = await api.ctx.prisma.webhookEvent.findUniqueOrThrow({ where: { id: res.body.webhook_id as number } });
    expect(row).toMatchObject({
      source: "products",
      site_id: woo,
      event_type: "product.updated",
      event_id: `products_${woo}_${headers["x-wc-webhook-delivery-id"]}_${createHash("sha256").update(body).digest("hex").slice(0, 16)}`,
      payload: body,
      payload_hash: createHash("sha256").update(body).digest("hex"),
      remote_addr: expect.stringMatching(/127\.0\.0\.1/),
      outcome: "refresh",
    });
    expect(row.processed_at).toBeInstanceOf(Date);
    expect(await refreshJobs()).toEqual([{ id: `inventory-sync.${woo}.product.77.webhook.${row.id}`, data: { site_id: woo, product_ids: ["77"] } }]);
  });

  it("refreshes a variation's parent product", async () => {
    const { body, headers } = wooDelivery({ id: 90, parent_id: 77, type: "variation" });
    expect((await deliver(woo, body, headers)).status).toBe(202);
    expect((await refreshJobs()).map((job) => job.data)).toEqual([{ site_id: woo, product_ids: ["77"] }]);
  });

  it("answers WooCommerce's unsigned ping with 200 and stores nothing", async () => {
    const before = (await rowsOf(woo)).length;
    const res = await deliver(woo, "webhook_id=12", { "content-type": "application/x-www-form-urlencoded" });
    expect(res).toEqual({ status: 200, body: { success: true, message: "Webhook ping received." } });
    expect(await rowsOf(woo)).toHaveLength(before);
    expect(await refreshJobs()).toEqual([]);
  });

  it.each([
    ["a signature made with another secret", (h: Record<string, string>) => ({ ...h, "x-wc-webhook-signature": sign("{}", "not-the-secret") })],
    ["a signature of another body", (h: Record<string, string>) => ({ ...h, "x-wc-webhook-signature": sign('{"id":1}') })],
    ["no signature", (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([name]) => name !== "x-wc-webhook-signature"))],
    ["only the storefront_a header", (h: Record<string, string>) => ({ ...Object.fromEntries(Object.entries(h).filter(([name]) => name !== "x-wc-webhook-signature")), "x-webhook-secret": WOO_SECRET })],
  ])("answers 401 rest_forbidden to %s and stores nothing", async (_label, tamper) => {
    const before = (await rowsOf(woo)).length;
    const { body, headers } = wooDelivery({ id: 78 });
    const res = await deliver(woo, body, tamper(headers));
    expect(res).toEqual({ status: 401, body: { code: "rest_forbidden", message: "Invalid or missing webhook signature.", data: { status: 401 } } });
    expect(await rowsOf(woo)).toHaveLength(before);
    expect(await refreshJobs()).toEqual([]);
  });

  it("checks the signature over the raw bytes, whatever their JSON formatting", async () => {
    const body = '{ "id" : 79,\n  "name": "Caf\u00e9 mug" }';
    const res = await deliver(woo, body, { "x-wc-webhook-topic": "product.updated", "x-wc-webhook-signature": sign(body) });
    expect(res.status).toBe(202);
    expect((await refreshJobs()).map((job) => job.data.product_ids)).toEqual([["79"]]);
  });

  it("answers 200 to a redelivery and stores it once; the same delivery id with another body is another event", async () => {
    const first = wooDelivery({ id: 80 }, { delivery: "d0f0c0ffee" });
    expect((await deliver(woo, first.body, first.headers)).status).toBe(202);
    expect(await deliver(woo, first.body, first.headers)).toEqual({ status: 200, body: { success: true, message: "Event already received." } });
    // WooCommerce derives the delivery id from the hook and the current second, so two changes in one second share it.
    const sameSecond = wooDelivery({ id: 81 }, { delivery: "d0f0c0ffee" });
    expect((await deliver(woo, sameSecond.body, sameSecond.headers)).status).toBe(202);
    expect((await rowsOf(woo)).filter((row) => row.event_id?.includes("d0f0c0ffee"))).toHaveLength(2);
  });

  it("stores a deletion without queueing a refresh", async () => {
    const body = JSON.stringify({ id: 82 });
    const res = await deliver(woo, body, { "x-wc-webhook-topic": "product.deleted", "x-wc-webhook-signature": sign(body) });
    expect(res).toEqual({ status: 202, body: { success: true, message: "Webhook received; it names no product whose stock needs a refresh.", webhook_id: expect.any(Number) } });
    expect(await api.ctx.prisma.webhookEvent.findUniqueOrThrow({ where: { id: res.body.webhook_id as number } })).toMatchObject({ event_type: "product.deleted", outcome: "ignored" });
    expect(await refreshJobs()).toEqual([]);
  });

  it("answers 400 for a signed body that is empty or not a JSON object", async () => {
    expect((await deliver(woo, "", { "x-wc-webhook-signature": sign("") })).body).toMatchObject({ code: "empty_payload", data: { status: 400 } });
    expect((await deliver(woo, "{nope", { "x-wc-webhook-signature": sign("{nope") })).body).toMatchObject({ code: "invalid_json", data: { status: 400 } });
    expect((await deliver(woo, "[1]", { "x-wc-webhook-signature": sign("[1]") })).body).toMatchObject({ code: "invalid_json", data: { status: 400 } });
  });
});

describe("storefront_a (BigCommerce)", () => {
  it("accepts the shared-secret header and refreshes data.id of a product event", async () => {
    const { body, headers } = bcDelivery("store/product/updated", { type: "product", id: 205 });
    const res = await deliver(bc, body, headers);
    expect(res.status).toBe(202);
    const row = await api.ctx.prisma.webhookEvent.findUniqueOrThrow({ where: { id: res.body.webhook_id as number } });
    const hash = (JSON.parse(body) as { hash: string }).hash;
    expect(row).toMatchObject({ site_id: bc, event_type: "store/product/updated", event_id: expect.stringMatching(new RegExp(`^products_${bc}_${hash}_[0-9a-f]{16}$`)), outcome: "refresh" });
    expect((await refreshJobs()).map((job) => job.data)).toEqual([{ site_id: bc, product_ids: ["205"] }]);
  });

  it("refreshes the product of an SKU event and of a product inventory event", async () => {
    for (const [scope, data] of [
      ["store/sku/inventory/updated", { type: "sku", id: 461, inventory: { product_id: 206, method: "absolute", value: 5, variant_id: 509 } }],
      ["store/sku/updated", { type: "sku", id: 462, sku: { product_id: 207, variant_id: 510 } }],
      ["store/product/inventory/updated", { type: "product", id: 208, inventory: { product_id: 208, method: "relative", value: -3 } }],
    ] as const) {
      const { body, headers } = bcDelivery(scope, data);
      expect((await deliver(bc, body, headers)).status).toBe(202);
    }
    expect((await refreshJobs()).map((job) => job.data.product_ids[0]).sort()).toEqual(["206", "207", "208"]);
  });

  it("stores an event that names no product (an order) without queueing", async () => {
    const { body, headers } = bcDelivery("store/order/created", { type: "order", id: 250 });
    const res = await deliver(bc, body, headers);
    expect(res.status).toBe(202);
    expect(await api.ctx.prisma.webhookEvent.findUniqueOrThrow({ where: { id: res.body.webhook_id as number } })).toMatchObject({ outcome: "ignored" });
    expect(await refreshJobs()).toEqual([]);
  });

  it("answers 401 to a wrong or missing secret, to a WooCommerce signature and to a ping", async () => {
    const before = (await rowsOf(bc)).length;
    const good = bcDelivery("store/product/updated", { type: "product", id: 209 });
    const attempts: Record<string, string>[] = [{ "x-webhook-secret": `${BC_SECRET}x` }, { "x-webhook-secret": "" }, {}, { "x-wc-webhook-signature": sign(good.body, BC_SECRET) }];
    for (const headers of attempts) {
      expect(await deliver(bc, good.body, headers), JSON.stringify(headers)).toMatchObject({ status: 401, body: { code: "rest_forbidden" } });
    }
    expect((await deliver(bc, "webhook_id=3", { "content-type": "application/x-www-form-urlencoded" })).status).toBe(401);
    expect(await rowsOf(bc)).toHaveLength(before);
    expect(await refreshJobs()).toEqual([]);
  });

  it("dedupes a redelivery by the event's hash", async () => {
    const { body, headers } = bcDelivery("store/product/updated", { type: "product", id: 210 });
    expect((await deliver(bc, body, headers)).status).toBe(202);
    expect((await deliver(bc, body, headers)).status).toBe(200);
    expect((await rowsOf(bc)).filter((row) => row.payload === body)).toHaveLength(1);
  });
});

describe("a refresh Redis refuses", () => {
  /** Delivers through an API that lost its Redis connection: the row is stored, Redis refuses its refresh at once. */
  async function deliverWithoutRedis(body: string, headers: Record<string, string>) {
    const broken = await startApi();
    try {
      // Opened first: an unreachable Redis would leave the queue waiting to connect rather than refuse.
      await broken.ctx.queues.get("inventory").getJobCounts();
      broken.ctx.redis.disconnect();
      return await deliver(woo, body, headers, broken.url);
    } finally {
      await broken.close().catch(() => {});
    }
  }

  async function rowOf(body: string) {
    return api.ctx.prisma.webhookEvent.findFirstOrThrow({ where: { source: "products", site_id: woo, payload: body } });
  }

  it("answers 503, leaves the row unprocessed, and the inbox sweep queues the refresh past the grace period and marks the row", async () => {
    const { body, headers } = wooDelivery({ id: 401 });
    expect(await deliverWithoutRedis(body, headers)).toEqual({
      status: 503,
      body: { code: "queue_unavailable", message: "The webhook was stored but could not be queued; retrying is safe.", data: { status: 503 } },
    });
    const row = await rowOf(body);
    expect(row).toMatchObject({ outcome: "refresh", processed_at: null });
    // Rows other tests or test files left unprocessed would be swept too; only this one is under test.
    await api.ctx.prisma.webhookEvent.updateMany({ where: { source: "products", processed_at: null, id: { not: row.id } }, data: { processed_at: new Date() } });

    // Within the grace period the receiver may still be adding the job: the sweep leaves the row alone.
    expect(await sweepProductInbox(api.ctx)).toBe(0);
    expect(await refreshJobs()).toEqual([]);

    await api.ctx.prisma.webhookEvent.update({ where: { id: row.id }, data: { received_at: new Date(Date.now() - 60_000) } });
    expect(await sweepProductInbox(api.ctx)).toBe(1);
    expect(await refreshJobs()).toEqual([{ id: `inventory-sync.${woo}.product.401.webhook.${row.id}`, data: { site_id: woo, product_ids: ["401"] } }]);
    expect((await rowOf(body)).processed_at).toBeInstanceOf(Date);
    expect(await sweepProductInbox(api.ctx)).toBe(0);
    expect(await refreshJobs()).toHaveLength(1);
  });

  it("is queued by a redelivery of the same event, which marks the row", async () => {
    const { body, headers } = wooDelivery({ id: 402 });
    expect((await deliverWithoutRedis(body, headers)).status).toBe(503);
    expect((await rowOf(body)).processed_at).toBeNull();
    expect(await deliver(woo, body, headers)).toEqual({ status: 200, body: { success: true, message: "Event already received." } });
    const row = await rowOf(body);
    expect(row.processed_at).toBeInstanceOf(Date);
    expect(await refreshJobs()).toEqual([{ id: `inventory-sync.${woo}.product.402.webhook.${row.id}`, data: { site_id: woo, product_ids: ["402"] } }]);
    // Processed: a further redelivery needs nothing more.
    await inventory.obliterate({ force: true });
    expect((await deliver(woo, body, headers)).status).toBe(200);
    expect(await refreshJobs()).toEqual([]);
  });
});

describe("every site", () => {
  it("answers 404 for an unknown site, before looking at the signature", async () => {
    const { body, headers } = wooDelivery({ id: 1 });
    expect(await deliver(2147000003, body, headers)).toEqual({ status: 404, body: { code: "rest_not_found", message: "Site not found.", data: { status: 404 } } });
    expect((await deliver("abc", body, headers)).status).toBe(400);
  });

  it("refuses every delivery to a site without a webhook secret", async () => {
    const bare = await createSite({ platform: "storefront_b" });
    const { body, headers } = wooDelivery({ id: 5 });
    expect(await deliver(bare, body, headers)).toMatchObject({ status: 401, body: { code: "rest_forbidden" } });
    expect(await deliver(bare, body, { ...headers, "x-wc-webhook-signature": sign(body, "") })).toMatchObject({ status: 401 });
    expect(await rowsOf(bare)).toEqual([]);
  });

  it("stores the event of a site that does not sync inventory, without queueing", async () => {
    const off = await createSite({ platform: "storefront_b", webhook_secret: WOO_SECRET, inventory_sync: false });
    const inactive = await createSite({ platform: "storefront_b", webhook_secret: WOO_SECRET, is_active: false });
    for (const siteId of [off, inactive]) {
      const { body, headers } = wooDelivery({ id: 11 });
      const res = await deliver(siteId, body, headers);
      expect(res.body).toMatchObject({ success: true, message: "Webhook received; the site does not sync inventory, so nothing was queued." });
      expect(await rowsOf(siteId)).toMatchObject([{ outcome: "sync_off", site_id: siteId }]);
    }
    expect(await refreshJobs()).toEqual([]);
  });

  it("queues one refresh for a burst, one follow-up for a change during the run, and a new one after it", async () => {
    const send = async () => {
      const { body, headers } = wooDelivery({ id: 300 });
      expect((await deliver(woo, body, headers)).status).toBe(202);
    };
    const forProduct = async () => (await inventory.getJobs(["waiting", "active"])).filter((job) => job.data.product_ids?.[0] === "300");

    await send();
    await send();
    await send();
    const waiting = await forProduct();
    expect(waiting).toHaveLength(1);
    expect(await waiting[0]!.getState()).toBe("waiting");

    const connection = createRedis(api.ctx.config.REDIS_URL, { blocking: true });
    const worker = new Worker("inventory", null, { connection, prefix: api.ctx.config.QUEUE_PREFIX, autorun: false });
    try {
      const running = await worker.getNextJob("tok", { block: false });
      expect(running?.id).toBe(waiting[0]!.id);
      // Changes while the refresh runs: it may have read the stock already, so one more refresh must follow.
      await send();
      await send();
      expect((await forProduct()).map((job) => job.id)).toEqual([running!.id]);
      await running!.moveToCompleted("done", "tok", false);
      const followUp = await forProduct();
      expect(followUp).toHaveLength(1);
      expect(followUp[0]!.id).not.toBe(running!.id);
      expect(await followUp[0]!.getState()).toBe("waiting");

      const second = await worker.getNextJob("tok2", { block: false });
      await second!.moveToCompleted("done", "tok2", false);
      expect(await forProduct()).toEqual([]);
      await send();
      expect(await forProduct()).toHaveLength(1);
    } finally {
      await worker.close();
      connection.disconnect();
    }
  });

  it("keeps each inbox sweep to its own source: product rows never get a dispute job, acquirer rows never a refresh", async () => {
    const { body, headers } = wooDelivery({ id: 12 });
    const res = await deliver(woo, body, headers);
    // Old enough for the sweeps, and as if its refresh had never been queued.
    const product = await api.ctx.prisma.webhookEvent.update({ where: { id: res.body.webhook_id as number }, data: { received_at: new Date(Date.now() - 3600_000), processed_at: null } });
    const acquirer = await api.ctx.prisma.webhookEvent.create({
      data: { source: "acquirer", event_type: "dispute.created", event_id: `acquirer_case_${RUN}_sweep`, payload: "{}", payload_hash: "0".repeat(64), received_at: new Date(Date.now() - 3600_000) },
    });
    await api.ctx.queues.get("disputes").obliterate({ force: true });
    await inventory.obliterate({ force: true });
    // Rows other tests or test files left unprocessed would be swept too; only these two are under test.
    await api.ctx.prisma.webhookEvent.updateMany({ where: { processed_at: null, id: { notIn: [product.id, acquirer.id] } }, data: { processed_at: new Date() } });

    expect(await sweepDisputeInbox(api.ctx)).toEqual({ queued: 1, retried: 0 });
    expect((await api.ctx.queues.get("disputes").getJobs(["waiting"])).map((job) => job.data)).toEqual([{ webhook_id: acquirer.id, event_id: `acquirer_case_${RUN}_sweep` }]);
    expect(await refreshJobs()).toEqual([]);
    expect((await api.ctx.prisma.webhookEvent.findUniqueOrThrow({ where: { id: product.id } })).processed_at).toBeNull();

    expect(await sweepProductInbox(api.ctx)).toBe(1);
    expect(await refreshJobs()).toEqual([{ id: `inventory-sync.${woo}.product.12.webhook.${product.id}`, data: { site_id: woo, product_ids: ["12"] } }]);
    expect(await api.ctx.queues.get("disputes").getJobs(["waiting"])).toHaveLength(1);
    expect((await api.ctx.prisma.webhookEvent.findUniqueOrThrow({ where: { id: acquirer.id } })).processed_at).toBeNull();
    await api.ctx.prisma.webhookEvent.update({ where: { id: acquirer.id }, data: { processed_at: new Date() } });
    await api.ctx.queues.get("disputes").obliterate({ force: true });
  });

  it("is documented in the OpenAPI document as a public route", async () => {
    const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    expect(doc.paths[`${ROOT}/webhooks/products/{site_id}`]?.post?.security).toEqual([]);
  });
});

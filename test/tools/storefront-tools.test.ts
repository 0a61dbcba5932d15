import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { expectAdminOnly, restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { exportedOrder, itemLines, receivedOrder, storefrontASite, storefrontBSite } from "../support/storefront-sites.ts";
import { startSyncHarness, type SyncHarness } from "../support/sync-harness.ts";

// The toolshed's storefront_a (BigCommerce) and storefront_b (WooCommerce) tools through HTTP: the API in this
// process, the real worker entry point for the re-push job, fakes of both storefronts and of the ERP.
let harness: SyncHarness;
let api: TestApi;
let admin: string;
let tools: string;
let soCounter = 0;

beforeAll(async () => {
  harness = await startSyncHarness(["tracking"], { HTTP_TIMEOUT_MS: "2000" });
  api = await startApi();
  admin = await userWith(api, "manage_middleware");
  tools = `${api.url}/tools/v1`;
});

beforeEach(() => {
  harness.erp.reset();
  harness.fakeB.reset();
});

afterAll(async () => {
  await api?.close();
  await harness?.close();
});

/** Our order `number`, exported to the ERP, whose sales order shipped under `tracking`. */
async function shippedInErp(siteId: number, number: string, tracking: string, lines: Record<string, number>): Promise<void> {
  soCounter += 1;
  const salesOrder = `SO-T${process.pid}-${soCounter}`;
  await exportedOrder(harness.prisma, siteId, number, salesOrder);
  harness.erp.addShipment({ orderNumber: salesOrder, shipmentDate: "2026-11-18", shippingAgentCode: "UPS", packageTrackingNo: tracking, salesShipmentLines: itemLines(lines) });
}

const get = (path: string) => restCall(`${tools}${path}`, "GET", undefined, admin);
const post = (path: string) => restCall(`${tools}${path}`, "POST", undefined, admin);

describe("toolshed: storefront_a (BigCommerce)", () => {
  it("looks an order up by its number, with what the middleware holds of it", async () => {
    const { siteId, store } = await storefrontASite(harness.prisma, harness.key, harness.fakeA);
    const order = store.addOrder({ status_id: 9, lines: [{ sku: "MUG-1", quantity: 2 }] });
    await exportedOrder(harness.prisma, siteId, String(order.id), "SO-A-LOOKUP");

    const res = await get(`/storefront_a/sites/${siteId}/orders/${order.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      site_id: siteId,
      platform: "storefront_a",
      order: { id: String(order.id), number: String(order.id), status: "Awaiting Shipment", date_created: expect.any(String), items: [{ sku: "MUG-1", quantity: 2, quantity_shipped: 0 }] },
      middleware: { received: true, erp_sales_order_number: "SO-A-LOOKUP", ship_status: 0, tracking: [] },
    });

    const unknown = await get(`/storefront_a/sites/${siteId}/orders/99999999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "rest_not_found", message: `Order 99999999 was not found on storefront_a site ${siteId}.`, data: { status: 404 } });
  });

  it("answers the stock of a product SKU and of a variant SKU, and 404 for a SKU nothing carries", async () => {
    const { siteId, store } = await storefrontASite(harness.prisma, harness.key, harness.fakeA);
    const mug = store.addProduct({ sku: "MUG-1", inventory_level: 7 });
    const tee = store.addProduct({ sku: "TEE", variants: [{ sku: "TEE-S", inventory_level: 3 }, { sku: "TEE-M", inventory_level: 5 }] });

    const product = await get(`/storefront_a/sites/${siteId}/stock?sku=MUG-1`);
    expect(product.status).toBe(200);
    expect(product.body).toEqual({ site_id: siteId, platform: "storefront_a", sku: "MUG-1", units: [{ product_id: mug.id, variant_id: null, sku: "MUG-1", manages_stock: true, stock: 7 }] });

    const variant = await get(`/storefront_a/sites/${siteId}/stock?sku=TEE-M`);
    expect(variant.status).toBe(200);
    expect(variant.body.units).toEqual([{ product_id: tee.id, variant_id: tee.variants[1]!.id, sku: "TEE-M", manages_stock: true, stock: 5 }]);

    const none = await get(`/storefront_a/sites/${siteId}/stock?sku=NOPE-1`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ code: "rest_not_found", message: `No product with SKU NOPE-1 was found on storefront_a site ${siteId}.`, data: { status: 404 } });

    const missing = await get(`/storefront_a/sites/${siteId}/stock`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ code: "rest_missing_callback_param", data: { status: 400 } });
  });

  it("re-pushes one order's tracking through the tracking sync's rules: posted once, then found there", async () => {
    // Status 11 (Awaiting Fulfillment) is outside the site's status filters: the scheduled sync would not look at it.
    const { siteId, store } = await storefrontASite(harness.prisma, harness.key, harness.fakeA);
    const order = store.addOrder({ status_id: 11, lines: [{ sku: "MUG-1", quantity: 2 }] });
    await shippedInErp(siteId, String(order.id), "1Z999AA10123456784", { "MUG-1": 2 });

    const first = await post(`/storefront_a/sites/${siteId}/orders/${order.id}/tracking`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, order_number: String(order.id), counts: { orders: 1, shipments_created: 1, already_posted: 0, errors: 0 } });
    expect(order.shipments).toMatchObject([{ tracking_number: "1Z999AA10123456784", items: [{ order_product_id: order.products[0]!.id, quantity: 2 }] }]);

    const again = await post(`/storefront_a/sites/${siteId}/orders/${order.id}/tracking`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ counts: { shipments_created: 0, already_posted: 1 } });
    expect(order.shipments).toHaveLength(1);

    const lookup = await get(`/storefront_a/sites/${siteId}/orders/${order.id}`);
    expect(lookup.body.middleware).toMatchObject({ ship_status: 1, tracking: [{ tracking_number: "1Z999AA10123456784", platform_shipment_id: String(order.shipments[0]!.id) }] });
  });

  it("refuses a re-push it cannot do with a clear 4xx", async () => {
    const { siteId, store } = await storefrontASite(harness.prisma, harness.key, harness.fakeA);
    const never = await post(`/storefront_a/sites/${siteId}/orders/424242/tracking`);
    expect(never.status).toBe(404);
    expect(never.body).toEqual({ code: "rest_not_found", message: `Order 424242 of site ${siteId} was never pushed to the middleware, so it has no ERP tracking.`, data: { status: 404 } });

    const order = store.addOrder({ status_id: 9, lines: [{ sku: "MUG-1", quantity: 1 }] });
    await receivedOrder(harness.prisma, siteId, String(order.id));
    const notExported = await post(`/storefront_a/sites/${siteId}/orders/${order.id}/tracking`);
    expect(notExported.status).toBe(409);
    expect(notExported.body).toEqual({ code: "order_not_exported", message: `Order ${order.id} is not in the ERP yet, so it has no tracking to push.`, data: { status: 409 } });

    // Pushed to us, but the storefront has no such order (deleted there).
    await shippedInErp(siteId, "7777777", "1Z999AA10123456785", {});
    const gone = await post(`/storefront_a/sites/${siteId}/orders/7777777/tracking`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: "rest_not_found", message: `Order 7777777 was not found on storefront_a site ${siteId}.`, data: { status: 404 } });

    const { siteId: off } = await storefrontASite(harness.prisma, harness.key, harness.fakeA, { tracking_enabled: false });
    const disabled = await post(`/storefront_a/sites/${off}/orders/1/tracking`);
    expect(disabled.status).toBe(400);
    expect(disabled.body).toMatchObject({ code: "rest_invalid_param", data: { status: 400, params: { site_id: expect.stringContaining("tracking sync is off") } } });
  });
});

describe("toolshed: storefront_b (WooCommerce)", () => {
  it("looks an order up by its number, also when the number is not the order id", async () => {
    const siteId = await storefrontBSite(harness.prisma, harness.key, harness.fakeB);
    const plain = harness.fakeB.shop.addOrder({ status: "processing", lines: [{ sku: "MUG-1", quantity: 2 }] });
    const numbered = harness.fakeB.shop.addOrder({ number: "WC-10045", status: "on-hold", lines: [{ sku: "TEE-M", quantity: 1 }] });

    const byId = await get(`/storefront_b/sites/${siteId}/orders/${plain.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({
      site_id: siteId,
      platform: "storefront_b",
      order: { id: String(plain.id), number: String(plain.id), status: "processing", date_created: "2026-11-17T10:00:00", items: [{ sku: "MUG-1", quantity: 2, quantity_shipped: null }] },
      middleware: { received: false, erp_sales_order_number: null, ship_status: null, tracking: [] },
    });

    const byNumber = await get(`/storefront_b/sites/${siteId}/orders/WC-10045`);
    expect(byNumber.status).toBe(200);
    expect(byNumber.body.order).toMatchObject({ id: String(numbered.id), number: "WC-10045", status: "on-hold" });

    const unknown = await get(`/storefront_b/sites/${siteId}/orders/WC-99999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "rest_not_found", message: `Order WC-99999 was not found on storefront_b site ${siteId}.`, data: { status: 404 } });
  });

  it("answers the stock of a product, of a variation, and of a variation whose stock its product holds", async () => {
    const siteId = await storefrontBSite(harness.prisma, harness.key, harness.fakeB);
    const mug = harness.fakeB.shop.addProduct({ sku: "MUG-1", stock_quantity: 7 });
    const tee = harness.fakeB.shop.addProduct({ sku: "TEE", variations: [{ sku: "TEE-S", stock_quantity: 3 }] });
    const cap = harness.fakeB.shop.addProduct({ sku: "CAP", manage_stock: true, stock_quantity: 12, variations: [{ sku: "CAP-RED", manage_stock: "parent", stock_quantity: null }] });

    const product = await get(`/storefront_b/sites/${siteId}/stock?sku=MUG-1`);
    expect(product.status).toBe(200);
    expect(product.body).toEqual({ site_id: siteId, platform: "storefront_b", sku: "MUG-1", units: [{ product_id: mug.id, variant_id: null, sku: "MUG-1", manages_stock: true, stock: 7 }] });

    const variation = await get(`/storefront_b/sites/${siteId}/stock?sku=TEE-S`);
    expect(variation.body.units).toEqual([{ product_id: tee.id, variant_id: tee.variations[0], sku: "TEE-S", manages_stock: true, stock: 3 }]);

    const parentHeld = await get(`/storefront_b/sites/${siteId}/stock?sku=CAP-RED`);
    expect(parentHeld.body.units).toEqual([{ product_id: cap.id, variant_id: cap.variations[0], sku: "CAP-RED", manages_stock: true, stock: 12 }]);

    const none = await get(`/storefront_b/sites/${siteId}/stock?sku=NOPE-1`);
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: "rest_not_found", data: { status: 404 } });
  });

  it("re-pushes one order's tracking as an order note, and posts it again when the note was removed on the storefront", async () => {
    const siteId = await storefrontBSite(harness.prisma, harness.key, harness.fakeB, { auto_complete: false });
    const order = harness.fakeB.shop.addOrder({ status: "processing", lines: [{ sku: "MUG-1", quantity: 1 }] });
    await shippedInErp(siteId, order.number, "9400111899223100001234", { "MUG-1": 1 });

    const first = await post(`/storefront_b/sites/${siteId}/orders/${order.number}/tracking`);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ success: true, counts: { orders: 1, shipments_created: 1, already_posted: 0 } });
    expect(order.notes.map((note) => note.note)).toEqual(["Your order has shipped via ups. Tracking number: 9400111899223100001234"]);

    const again = await post(`/storefront_b/sites/${siteId}/orders/${order.number}/tracking`);
    expect(again.body).toMatchObject({ counts: { shipments_created: 0, already_posted: 1 } });
    expect(order.notes).toHaveLength(1);

    // Someone deleted the note in WooCommerce: our record still says posted, the re-push looks and puts it back.
    order.notes.length = 0;
    const restored = await post(`/storefront_b/sites/${siteId}/orders/${order.number}/tracking`);
    expect(restored.body).toMatchObject({ counts: { shipments_created: 1, already_posted: 0 } });
    expect(order.notes.map((note) => note.note)).toEqual(["Your order has shipped via ups. Tracking number: 9400111899223100001234"]);
  });

  it("answers 202 with the job id when asked not to wait", async () => {
    const siteId = await storefrontBSite(harness.prisma, harness.key, harness.fakeB);
    const order = harness.fakeB.shop.addOrder({ status: "processing", lines: [{ sku: "MUG-1", quantity: 1 }] });
    await shippedInErp(siteId, order.number, "1Z999AA10123456786", {});
    const res = await post(`/storefront_b/sites/${siteId}/orders/${order.number}/tracking?async=1`);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, job_id: expect.stringMatching(/^tracking-order-push\./) });
  });
});

describe("toolshed: sites and callers the storefront tools refuse", () => {
  it("refuses a site of the other platform, an unknown site, and callers without manage_middleware", async () => {
    const { siteId: siteA } = await storefrontASite(harness.prisma, harness.key, harness.fakeA);
    const siteB = await storefrontBSite(harness.prisma, harness.key, harness.fakeB);

    const wrongA = await get(`/storefront_a/sites/${siteB}/orders/1`);
    expect(wrongA.status).toBe(400);
    expect(wrongA.body).toEqual({
      code: "rest_invalid_param",
      message: "Invalid parameter(s): site_id",
      data: { status: 400, params: { site_id: `site ${siteB} is a storefront_b site; this tool works on storefront_a sites` } },
    });
    const wrongB = await post(`/storefront_b/sites/${siteA}/orders/1/tracking`);
    expect(wrongB.status).toBe(400);
    expect(wrongB.body).toMatchObject({ data: { params: { site_id: `site ${siteA} is a storefront_a site; this tool works on storefront_b sites` } } });

    const unknown = await get(`/storefront_b/sites/2000000000/stock?sku=MUG-1`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: "rest_not_found", message: "Site not found.", data: { status: 404 } });

    const staff = await userWith(api, "manage_options");
    await expectAdminOnly(
      tools,
      [
        ["GET", `/storefront_a/sites/${siteA}/orders/1`],
        ["GET", `/storefront_a/sites/${siteA}/stock?sku=MUG-1`],
        ["POST", `/storefront_a/sites/${siteA}/orders/1/tracking`],
        ["GET", `/storefront_b/sites/${siteB}/orders/1`],
        ["GET", `/storefront_b/sites/${siteB}/stock?sku=MUG-1`],
        ["POST", `/storefront_b/sites/${siteB}/orders/1/tracking`],
      ],
      staff,
    );
  });
});

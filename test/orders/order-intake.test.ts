import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";

let api: TestApi;
let site: { siteId: number; key: string; keyId: number };
let seq = 0;

beforeAll(async () => {
  api = await startApi();
  await seedItems(api.ctx.prisma, ["SKU-A", "SKU-B", "sku-lower"]);
  site = await createSiteWithKey(api.ctx.prisma);
});
afterAll(() => api.close());

function nextNumber(): string {
  seq += 1;
  return `T${process.pid % 10000}-${seq}`;
}

async function submit(body: unknown, headers: Record<string, string> = { authorization: `Bearer ${site.key}` }) {
  const res = await fetch(`${api.url}/middleware/v1/external/orders`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> & { data?: Record<string, unknown> } };
}

async function stored(number: string) {
  return api.ctx.prisma.order.findUnique({
    where: { site_id_number: { site_id: site.siteId, number } },
    include: { lines: { orderBy: { line: "asc" } }, addresses: { orderBy: { type: "desc" } } },
  });
}

async function counts() {
  const [orders, lines, addresses] = await Promise.all([
    api.ctx.prisma.order.count(),
    api.ctx.prisma.orderLine.count(),
    api.ctx.prisma.orderAddress.count(),
  ]);
  return { orders, lines, addresses };
}

describe("POST /external/orders: success", () => {
  it("stores the order, its lines and both addresses, queues the export, and answers 201", async () => {
    const number = nextNumber();
    const res = await submit(orderBody(number));
    expect(res).toEqual({ status: 201, body: { success: true, order_number: number, message: "Order created." } });
    const order = await stored(number);
    expect(order).toMatchObject({
      site_id: site.siteId,
      trans_id: "TX-1",
      payment_method: "pay_1",
      pay_1: "1",
      pay_2: "0",
      imported: 0,
      fully_import_from_website: 1,
    });
    expect(order!.dateadded.toISOString()).toBe("2026-11-20T00:00:00.000Z");
    expect(order!.lines.map((l) => [l.line, l.sku, l.quantity, Number(l.price)])).toEqual([
      [1, "SKU-A", 2, 12.5],
      [2, "SHIPPING", 1, 4.99],
    ]);
    expect(order!.addresses.map((a) => a.type)).toEqual([1, 0]);
    const job = await api.ctx.queues.get("orders").getJob(`order-export.${order!.id}`);
    expect(job?.data).toEqual({ order_id: order!.id, order_number: number, site_id: site.siteId });
  });

  it("accepts the key as X-API-Key too, and a full ISO datetime", async () => {
    const number = nextNumber();
    const res = await submit(orderBody(number, { date: "2026-11-20T15:04:05-05:00" }), { "x-api-key": site.key });
    expect(res.status).toBe(201);
    expect((await stored(number))!.dateadded.toISOString()).toBe("2026-11-20T20:04:05.000Z");
  });

  it("ignores a site id in the body: the key fixes the site", async () => {
    const other = await createSiteWithKey(api.ctx.prisma);
    const number = nextNumber();
    expect((await submit(orderBody(number, { site_id: other.siteId }))).status).toBe(201);
    expect((await stored(number))!.site_id).toBe(site.siteId);
  });
});

describe("defaults (spec 1, 2.1)", () => {
  it.each([
    ["pay_1", 27111],
    ["pay_2", 27111],
    ["pay_3", 27593],
    ["pay_4", 27111],
    ["pay_5", 37457],
    ["pay_6", 38407],
  ])("contact_id for %s is %i when omitted", async (method, contact) => {
    const number = nextNumber();
    expect((await submit(orderBody(number, { payment_method: method }))).status).toBe(201);
    const order = await stored(number);
    expect(order!.contact_id).toBe(contact);
    expect(order![method as "pay_1"]).toBe("1");
  });

  it("keeps a given contact_id", async () => {
    const number = nextNumber();
    await submit(orderBody(number, { payment_method: "pay_3", contact_id: 555 }));
    expect((await stored(number))!.contact_id).toBe(555);
  });

  it("defaults carrier, service, country and the shipping address", async () => {
    const number = nextNumber();
    await submit(orderBody(number));
    const order = await stored(number);
    expect(order!.shipping_agent_code).toBe("FEDEX");
    expect(order!.shipping_agent_service).toBe("GROUND_HOME_DELIVERY");
    const [billing, shipping] = order!.addresses;
    expect(billing!.country).toBe("US");
    const { id: _b, type: _bt, ...billingFields } = billing!;
    const { id: _s, type: _st, ...shippingFields } = shipping!;
    expect(shippingFields).toEqual(billingFields);
  });

  it("keeps given carrier, service, country and a separate shipping address", async () => {
    const number = nextNumber();
    const shippingAddress = { ...(orderBody("x").billing_address as object), first_name: "Grace", country: "CA" };
    await submit(orderBody(number, { shipping_agent_code: "UPS", shipping_agent_service: "NEXT_DAY", shipping_address: shippingAddress }));
    const order = await stored(number);
    expect(order).toMatchObject({ shipping_agent_code: "UPS", shipping_agent_service: "NEXT_DAY" });
    expect(order!.addresses[1]).toMatchObject({ type: 0, first_name: "Grace", country: "CA" });
  });

  it("defaults discount_amount and weight to 0 and keeps coupon codes", async () => {
    const number = nextNumber();
    await submit(
      orderBody(number, {
        line_items: [
          { line_number: 1, sku: "SKU-A", quantity: 1, unit_price: 10 },
          { line_number: 2, sku: "COUPON", quantity: 1, unit_price: -2, coupon_code: "SAVE2", discount_amount: 2, weight: 0.5 },
        ],
      }),
    );
    const lines = (await stored(number))!.lines;
    expect(lines.map((l) => [Number(l.discount_amount), Number(l.weight), l.coupon_code])).toEqual([
      [0, 0, null],
      [2, 0.5, "SAVE2"],
    ]);
  });
});

describe("truncation to the section 8 limits", () => {
  const long = (n: number) => "x".repeat(n + 7);
  it.each([
    ["first_name", 50],
    ["last_name", 50],
    ["address1", 50],
    ["address2", 50],
    ["company", 10],
    ["country", 10],
    ["city", 30],
    ["state", 30],
    ["phone", 30],
    ["postal_code", 20],
  ])("cuts address %s to %i characters", async (field, max) => {
    const number = nextNumber();
    const billing = { ...(orderBody("x").billing_address as object), [field]: long(max) };
    expect((await submit(orderBody(number, { billing_address: billing }))).status).toBe(201);
    const order = await stored(number);
    for (const address of order!.addresses) expect((address as unknown as Record<string, string>)[field]).toBe("x".repeat(max));
  });

  it("counts characters, not UTF-16 units: an emoji at the cut is kept whole, never stored as ?", async () => {
    const number = nextNumber();
    const name = `${"x".repeat(48)}😀😀😀`;
    const billing = { ...(orderBody("x").billing_address as object), first_name: name, city: `${"é".repeat(29)}😀` };
    expect((await submit(orderBody(number, { billing_address: billing }))).status).toBe(201);
    const order = await stored(number);
    expect(order!.addresses[0]).toMatchObject({ first_name: `${"x".repeat(48)}😀😀`, city: `${"é".repeat(29)}😀` });
  });

  it("cuts email to 58, order_number and transaction_id to 20, coupon_code to 50", async () => {
    const number = `${nextNumber()}-${"9".repeat(30)}`;
    const email = `${"e".repeat(60)}@example.com`;
    const billing = { ...(orderBody("x").billing_address as object), email };
    const res = await submit(
      orderBody(number, {
        transaction_id: "T".repeat(25),
        billing_address: billing,
        line_items: [{ line_number: 1, sku: "COUPON", quantity: 1, unit_price: -1, coupon_code: "C".repeat(60) }],
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.order_number).toBe(number.slice(0, 20));
    const order = await stored(number.slice(0, 20));
    expect(order!.trans_id).toBe("T".repeat(20));
    expect(order!.addresses[0]!.email).toBe(email.slice(0, 58));
    expect(order!.lines[0]!.coupon_code).toBe("C".repeat(50));
  });
});

describe("errors (spec 1, section 7)", () => {
  it("401 rest_forbidden for a missing, unknown or revoked key", async () => {
    const body = orderBody(nextNumber());
    const expected = { status: 401, body: { code: "rest_forbidden", message: "invalid or revoked API key", data: { status: 401 } } };
    expect(await submit(body, {})).toEqual(expected);
    expect(await submit(body, { authorization: "Bearer mwk_not-a-real-key" })).toEqual(expected);
    const revoked = await createSiteWithKey(api.ctx.prisma);
    expect((await submit(body, { authorization: `Bearer ${revoked.key}` })).status).toBe(201);
    // Revoked as an administrator does it: the route clears every process's key cache.
    const admin = await userWith(api, "manage_middleware");
    const revoke = await restCall(`${api.url}/middleware/v1/sites/${revoked.siteId}/api-keys/${revoked.keyId}`, "DELETE", undefined, admin);
    expect(revoke.status).toBe(200);
    expect(await submit(orderBody(nextNumber()), { authorization: `Bearer ${revoked.key}` })).toEqual(expected);
  });

  it("400 rest_missing_callback_param naming every absent required field", async () => {
    const res = await submit({ order_number: nextNumber(), payment_method: "pay_1", billing_address: { first_name: "A" }, line_items: [{ sku: "SKU-A" }] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("rest_missing_callback_param");
    expect(res.body.data!.params).toEqual([
      "date",
      "billing_address.last_name",
      "billing_address.address1",
      "billing_address.city",
      "billing_address.state",
      "billing_address.postal_code",
      "billing_address.email",
      "line_items[0].line_number",
      "line_items[0].quantity",
      "line_items[0].unit_price",
    ]);
    expect(res.body.message).toBe(`Missing parameter(s): ${(res.body.data!.params as string[]).join(", ")}`);
  });

  it.each([
    ["payment_method", { payment_method: "pay_7" }],
    ["line_items", { line_items: [] }],
    ["line_items", { line_items: Array.from({ length: 501 }, (_, i) => ({ line_number: i + 1, sku: "SKU-A", quantity: 1, unit_price: 1 })) }],
    ["line_items[0].quantity", { line_items: [{ line_number: 1, sku: "SKU-A", quantity: 0, unit_price: 1 }] }],
    ["line_items[0].quantity", { line_items: [{ line_number: 1, sku: "SKU-A", quantity: 1.5, unit_price: 1 }] }],
    ["line_items[0].unit_price", { line_items: [{ line_number: 1, sku: "SKU-A", quantity: 1, unit_price: "12.50" }] }],
    ["line_items[0].discount_amount", { line_items: [{ line_number: 1, sku: "SKU-A", quantity: 1, unit_price: 1, discount_amount: -1 }] }],
    ["contact_id", { contact_id: "27111" }],
    ["billing_address.email", { billing_address: { ...(orderBody("x").billing_address as object), email: "not-an-email" } }],
    ["order_number", { order_number: 12345 }],
  ])("400 rest_invalid_param naming %s", async (field, overrides) => {
    const res = await submit(orderBody(nextNumber(), overrides));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("rest_invalid_param");
    expect(Object.keys(res.body.data!.params as object)).toContain(field);
    expect(res.body.message).toContain(field);
  });

  it("400 rest_invalid_param when a line number repeats", async () => {
    const res = await submit(
      orderBody(nextNumber(), {
        line_items: [
          { line_number: 1, sku: "SKU-A", quantity: 1, unit_price: 1 },
          { line_number: 1, sku: "SKU-B", quantity: 1, unit_price: 1 },
        ],
      }),
    );
    expect(res.status).toBe(400);
    expect(res.body.data!.params).toEqual({ line_items: "line_number 1 is used more than once" });
  });

  it.each(["2026-02-30", "20/11/2026", "yesterday", "2026-11-20T25:00:00Z", ""])("400 invalid_date for %j", async (date) => {
    const res = await submit(orderBody(nextNumber(), { date }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("invalid_date");
  });

  it("accepts 500 line items", async () => {
    const number = nextNumber();
    const lines = Array.from({ length: 500 }, (_, i) => ({ line_number: i + 1, sku: i % 2 ? "SKU-A" : "SKU-B", quantity: 1, unit_price: 1 }));
    expect((await submit(orderBody(number, { line_items: lines }))).status).toBe(201);
    expect((await stored(number))!.lines).toHaveLength(500);
  });

  it("422 unknown_skus lists them and stores nothing; system SKUs and case do not count", async () => {
    const before = await counts();
    const res = await submit(
      orderBody(nextNumber(), {
        line_items: [
          { line_number: 1, sku: "SKU-A", quantity: 1, unit_price: 1 },
          { line_number: 2, sku: "NOPE-1", quantity: 1, unit_price: 1 },
          { line_number: 3, sku: "sales tax", quantity: 1, unit_price: 1 },
          { line_number: 4, sku: "NOPE-2", quantity: 1, unit_price: 1 },
          { line_number: 5, sku: "NOPE-1", quantity: 1, unit_price: 1 },
          { line_number: 6, sku: "SKU-LOWER", quantity: 1, unit_price: 1 },
          { line_number: 7, sku: "STORE CREDIT", quantity: 1, unit_price: -5 },
        ],
      }),
    );
    expect(res).toEqual({
      status: 422,
      body: { code: "unknown_skus", message: "Unknown SKU(s): NOPE-1, NOPE-2", data: { status: 422, unknown_skus: ["NOPE-1", "NOPE-2"] } },
    });
    expect(await counts()).toEqual(before);
  });

  it("400 rest_invalid_json for a body that is not JSON", async () => {
    const res = await submit('{"order_number": ');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("rest_invalid_json");
  });
});

describe("the same order number again", () => {
  it("answers 200 with the existing order for an identical payload, 409 duplicate_order for a different one", async () => {
    const number = nextNumber();
    const body = orderBody(number);
    expect((await submit(body)).status).toBe(201);
    const before = await counts();
    expect(await submit(body)).toEqual({ status: 200, body: { success: true, order_number: number, message: "Order already received." } });
    const changed = await submit(orderBody(number, { transaction_id: "TX-2" }));
    expect(changed.status).toBe(409);
    expect(changed.body.code).toBe("duplicate_order");
    expect(await counts()).toEqual(before);
  });

  it("stores one order when the same order arrives twenty times at once", async () => {
    const number = nextNumber();
    const body = orderBody(number);
    const results = await Promise.all(Array.from({ length: 20 }, () => submit(body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(19);
    expect(await api.ctx.prisma.order.count({ where: { number } })).toBe(1);
    expect(await api.ctx.prisma.orderLine.count({ where: { order: { number } } })).toBe(2);
  });

  it("orders arriving together each keep their own lines and addresses, and a conflicting one among them changes none of them", async () => {
    const taken = nextNumber();
    expect((await submit(orderBody(taken))).status).toBe(201);
    const numbers = Array.from({ length: 30 }, () => nextNumber());
    // Order i has i + 1 lines of quantity i + 1 and its own e-mail, so a line or address filed under another order shows.
    const bodyOf = (i: number) =>
      orderBody(numbers[i]!, {
        line_items: Array.from({ length: i + 1 }, (_, line) => ({ line_number: line + 1, sku: line % 2 ? "SKU-B" : "SKU-A", quantity: i + 1, unit_price: 1 })),
        billing_address: { ...(orderBody("x").billing_address as object), email: `buyer${i}@example.com` },
      });
    const conflicting = orderBody(taken, { payment_method: "pay_3" });
    const results = await Promise.all([...numbers.map((_, i) => submit(bodyOf(i))), submit(conflicting)]);
    expect(results.map((r) => r.status)).toEqual([...numbers.map(() => 201), 409]);
    for (const [i, number] of numbers.entries()) {
      const order = await stored(number);
      expect(order!.lines.map((line) => line.quantity)).toEqual(Array.from({ length: i + 1 }, () => i + 1));
      expect(order!.addresses.find((address) => address.type === 1)!.email).toBe(`buyer${i}@example.com`);
    }
    expect((await stored(taken))!.lines).toHaveLength(2);
  });
});

describe("database failure", () => {
  it("answers 500 db_error and leaves nothing half-written", async () => {
    const number = nextNumber();
    const before = await counts();
    // Lines are written after the order inside the transaction; a forced failure there must roll the order back.
    await api.ctx.prisma.$executeRawUnsafe(
      `CREATE TRIGGER fail_lines_${process.pid} BEFORE INSERT ON order_lines FOR EACH ROW
       BEGIN IF NEW.sku = 'SKU-B' THEN SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'disk full'; END IF; END`,
    );
    try {
      const res = await submit(orderBody(number, { line_items: [{ line_number: 1, sku: "SKU-B", quantity: 1, unit_price: 1 }] }));
      expect(res).toEqual({ status: 500, body: { code: "db_error", message: "The order could not be stored: database error.", data: { status: 500 } } });
      expect(await counts()).toEqual(before);
      expect(await stored(number)).toBeNull();
    } finally {
      await api.ctx.prisma.$executeRawUnsafe(`DROP TRIGGER fail_lines_${process.pid}`);
    }
  });
});

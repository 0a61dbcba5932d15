import { DEFAULT_CONTACT_ID, DEFAULT_SHIPPING_SERVICE, parseSubmission, type NormalisedOrder } from "@mw/domains/orders";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { orderBody } from "../support/fixtures.ts";

// Spec 1, 2.1, 4.1, 7 and 8 as properties of parseSubmission; no database, no API.
const RUNS = { numRuns: 150 };
const CARRIER = "FEDEX";

type Body = Record<string, unknown>;
type Address = Record<string, unknown>;
type Line = Record<string, unknown>;

function body(): Body & { billing_address: Address; line_items: Line[] } {
  return structuredClone(orderBody("W-1")) as Body & { billing_address: Address; line_items: Line[] };
}

/** What parseSubmission answers: the order, or the error's code and data. */
function parse(input: unknown, carrier = CARRIER): NormalisedOrder | { code: string; message: string; params: unknown } {
  try {
    return parseSubmission(input, carrier);
  } catch (error) {
    const { code, data } = error as { code: string; data: { params: unknown } };
    return { code, message: (error as Error).message, params: data.params };
  }
}

const character = fc.oneof(fc.constantFrom("a", " ", "é", "中"), fc.string({ minLength: 1, maxLength: 1 }));
/** Lengths up to `max` + 30, often right at the limit; left to itself fast-check rarely builds strings past a dozen characters. */
const lengthAround = (max: number) => fc.oneof(fc.integer({ min: 0, max: max + 30 }), fc.integer({ min: Math.max(0, max - 2), max: max + 2 }));
/** Text, including characters outside ASCII, of a length around `max`. */
const textAround = (max: number) => lengthAround(max).chain((length) => fc.string({ unit: character, minLength: length, maxLength: length }));

describe("truncation (spec 1, 4.1 rule 3 and section 8)", () => {
  const ADDRESS_LIMITS = { first_name: 50, last_name: 50, company: 10, address1: 50, address2: 50, city: 30, state: 30, postal_code: 20, country: 10, phone: 30 };

  it("cuts every address text to its column's length and keeps shorter ones as sent, in either address", () => {
    const field = fc
      .constantFrom(...(Object.entries(ADDRESS_LIMITS) as [keyof typeof ADDRESS_LIMITS, number][]))
      .chain(([name, max]) => textAround(max).map((text) => ({ name, max, text })));
    fc.assert(
      fc.property(field, fc.constantFrom("billing", "shipping"), ({ name, max, text }, which) => {
        const input = body();
        const address = { ...input.billing_address, [name]: text };
        if (which === "billing") input.billing_address = address;
        else input.shipping_address = address;
        const order = parse(input) as NormalisedOrder;
        // An empty country, once cut, is the default one.
        expect(order[which][name]).toBe(name === "country" ? text.slice(0, max) || "US" : text.slice(0, max));
      }),
      RUNS,
    );
  });

  it("cuts order_number (trimmed first) and transaction_id to 20, coupon_code to 50, email to 58", () => {
    const email = lengthAround(58 - "@example.com".length).map((length) => `${"e".repeat(Math.max(1, length))}@example.com`);
    const orderNumber = fc.tuple(fc.constantFrom("", " ", "  "), textAround(20)).map(([pad, text]) => pad + text + pad).filter((text) => text.trim() !== "");
    fc.assert(
      fc.property(orderNumber, textAround(20), textAround(50), email, (number, transId, coupon, address) => {
        const input = body();
        Object.assign(input, { order_number: number, transaction_id: transId });
        input.billing_address.email = address;
        input.line_items[0]!.coupon_code = coupon;
        const order = parse(input) as NormalisedOrder;
        expect(order.number).toBe(number.trim().slice(0, 20));
        expect(order.trans_id).toBe(transId.slice(0, 20));
        expect(order.lines[0]!.coupon_code).toBe(coupon.slice(0, 50));
        expect(order.billing.email).toBe(address.slice(0, 58));
      }),
      RUNS,
    );
  });

  it("never cuts sku, shipping_agent_code or shipping_agent_service: trimmed, they fit or are refused", () => {
    const code = (length: number) => fc.string({ unit: fc.constantFrom("A", "b", "7", "_"), minLength: length, maxLength: length });
    const field = fc
      .constantFrom(["sku", 64] as const, ["shipping_agent_code", 20] as const, ["shipping_agent_service", 50] as const)
      .chain(([name, max]) => lengthAround(max).chain((length) => code(Math.max(1, length))).map((text) => ({ name, max, text })));
    fc.assert(
      fc.property(field, fc.constantFrom("", " ", "  "), ({ name, max, text }, pad) => {
        const input = body();
        if (name === "sku") input.line_items[0]!.sku = pad + text + pad;
        else input[name] = pad + text + pad;
        const result = parse(input);
        const param = name === "sku" ? "line_items[0].sku" : name;
        if (text.length <= max) expect(name === "sku" ? (result as NormalisedOrder).lines[0]!.sku : (result as NormalisedOrder)[name]).toBe(text);
        else expect(result).toMatchObject({ code: "rest_invalid_param", params: { [param]: expect.any(String) } });
      }),
      RUNS,
    );
  });
});

describe("defaults (spec 1, 2.1)", () => {
  /** Absent and JSON null both mean "not given". */
  const notGiven = fc.constantFrom("absent", "null");
  const maybe = <T>(value: fc.Arbitrary<T>) => fc.oneof(notGiven, value.map((given) => ({ given })));
  type Maybe<T> = "absent" | "null" | { given: T };

  function put(target: Record<string, unknown>, key: string, value: Maybe<unknown>): void {
    if (value === "absent") delete target[key];
    else target[key] = value === "null" ? null : value.given;
  }
  const givenOr = <T, D>(value: Maybe<T>, fallback: D) => (typeof value === "object" ? value.given : fallback);

  const CONTACT_BY_PAYMENT: Record<string, number> = { pay_3: 27593, pay_5: 37457, pay_6: 38407 };
  const word = fc.stringMatching(/^[A-Za-z][A-Za-z0-9]{0,8}$/);

  it("fills in every optional field that is absent or null", () => {
    const optional = fc.record({
      payment_method: fc.constantFrom("pay_1", "pay_2", "pay_3", "pay_4", "pay_5", "pay_6"),
      transaction_id: maybe(word),
      contact_id: maybe(fc.integer({ min: 1, max: 2_147_483_647 })),
      shipping_agent_code: maybe(word),
      shipping_agent_service: maybe(word),
      shipping_first_name: maybe(word),
      company: maybe(word),
      address2: maybe(word),
      country: maybe(word),
      phone: maybe(word),
      coupon_code: maybe(word),
      discount_amount: maybe(fc.integer({ min: 0, max: 1000 })),
      weight: maybe(fc.integer({ min: 0, max: 1000 })),
      carrier: word,
    });
    fc.assert(
      fc.property(optional, (o) => {
        const input = body();
        input.payment_method = o.payment_method;
        for (const key of ["transaction_id", "contact_id", "shipping_agent_code", "shipping_agent_service"] as const) put(input, key, o[key]);
        for (const key of ["company", "address2", "country", "phone"] as const) put(input.billing_address, key, o[key]);
        for (const key of ["coupon_code", "discount_amount", "weight"] as const) put(input.line_items[0]!, key, o[key]);
        put(input, "shipping_address", typeof o.shipping_first_name === "object" ? { given: { ...input.billing_address, first_name: o.shipping_first_name.given } } : o.shipping_first_name);

        const order = parse(input, o.carrier) as NormalisedOrder;
        expect(order).toMatchObject({
          trans_id: givenOr(o.transaction_id, null),
          contact_id: givenOr(o.contact_id, CONTACT_BY_PAYMENT[o.payment_method] ?? DEFAULT_CONTACT_ID),
          shipping_agent_code: givenOr(o.shipping_agent_code, o.carrier),
          shipping_agent_service: givenOr(o.shipping_agent_service, DEFAULT_SHIPPING_SERVICE),
        });
        expect(order.billing).toMatchObject({ company: givenOr(o.company, null), address2: givenOr(o.address2, null), country: givenOr(o.country, "US"), phone: givenOr(o.phone, null) });
        expect(order.lines[0]).toMatchObject({ coupon_code: givenOr(o.coupon_code, null), discount_amount: givenOr(o.discount_amount, 0), weight: givenOr(o.weight, 0) });
        expect(order.shipping).toEqual({ ...order.billing, first_name: givenOr(o.shipping_first_name, order.billing.first_name) });
      }),
      RUNS,
    );
  });
});

describe("which error is reported (spec 1, section 7)", () => {
  /** Fields in the schema's order, each with a value of the wrong kind; `required` ones can also be left out. */
  const FIELDS: { name: string; required: boolean; bad: unknown; set: (input: ReturnType<typeof body>, value: unknown) => void }[] = [
    { name: "order_number", required: true, bad: "   ", set: (input, value) => (input.order_number = value) },
    { name: "date", required: true, bad: 20261120, set: (input, value) => (input.date = value) },
    { name: "payment_method", required: true, bad: "pay_7", set: (input, value) => (input.payment_method = value) },
    { name: "contact_id", required: false, bad: "27111", set: (input, value) => (input.contact_id = value) },
    { name: "shipping_agent_code", required: false, bad: "X".repeat(21), set: (input, value) => (input.shipping_agent_code = value) },
    { name: "billing_address.first_name", required: true, bad: 42, set: (input, value) => (input.billing_address.first_name = value) },
    { name: "billing_address.city", required: true, bad: ["Springfield"], set: (input, value) => (input.billing_address.city = value) },
    { name: "billing_address.email", required: true, bad: "not-an-email", set: (input, value) => (input.billing_address.email = value) },
    { name: "line_items[0].sku", required: true, bad: "x".repeat(65), set: (input, value) => (input.line_items[0]!.sku = value) },
    { name: "line_items[0].quantity", required: true, bad: 0, set: (input, value) => (input.line_items[0]!.quantity = value) },
    { name: "line_items[0].unit_price", required: true, bad: "12.50", set: (input, value) => (input.line_items[0]!.unit_price = value) },
  ];
  const fault = (required: boolean) => (required ? fc.constantFrom("ok", "missing", "bad") : fc.constantFrom("ok", "bad"));

  it("reports absent fields first (all, in schema order), then bad values (all), then a repeated line number, then an unreadable date", () => {
    const faults = fc.record({
      fields: fc.tuple(...FIELDS.map((field) => fault(field.required))),
      repeatedLine: fc.boolean(),
      unreadableDate: fc.option(fc.constantFrom("2026-02-30", "20/11/2026", "yesterday", "2026-11-20T25:00:00Z", "")),
    });
    fc.assert(
      fc.property(faults, ({ fields, repeatedLine, unreadableDate }) => {
        const input = body();
        if (repeatedLine) input.line_items[1]!.line_number = input.line_items[0]!.line_number;
        if (unreadableDate !== null) input.date = unreadableDate;
        FIELDS.forEach((field, i) => {
          if (fields[i] === "missing") field.set(input, undefined);
          if (fields[i] === "bad") field.set(input, field.bad);
        });
        const missing = FIELDS.filter((_, i) => fields[i] === "missing").map((field) => field.name);
        const bad = FIELDS.filter((_, i) => fields[i] === "bad").map((field) => field.name);
        const dateReplaced = fields[FIELDS.findIndex((field) => field.name === "date")] !== "ok";

        const result = parse(input);
        if (missing.length) {
          expect(result).toEqual({ code: "rest_missing_callback_param", params: missing, message: `Missing parameter(s): ${missing.join(", ")}` });
        } else if (bad.length) {
          expect(result).toMatchObject({ code: "rest_invalid_param" });
          expect(Object.keys((result as { params: object }).params).sort()).toEqual([...bad].sort());
        } else if (repeatedLine) {
          expect(result).toMatchObject({ code: "rest_invalid_param", params: { line_items: "line_number 1 is used more than once" } });
        } else if (unreadableDate !== null && !dateReplaced) {
          expect(result).toMatchObject({ code: "invalid_date", params: { date: "must be YYYY-MM-DD or an ISO-8601 datetime" } });
        } else {
          expect(result).toMatchObject({ number: "W-1" });
        }
      }),
      RUNS,
    );
  });
});

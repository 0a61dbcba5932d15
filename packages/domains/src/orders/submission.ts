import { z } from "zod";
import { AppError, errors } from "@mw/platform/core";
import { truncateCodePoints } from "@mw/platform/text";

/**
 * POST /external/orders bodies (spec 1, 2.1, 4.1, 7, 8): what is required,
 * what the types and ranges are, which strings are silently truncated, and
 * the defaults. The result is the normalised order that is stored and hashed.
 */

export const PAYMENT_METHODS = ["pay_1", "pay_2", "pay_3", "pay_4", "pay_5", "pay_6"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Discount, shipping, tax and store-credit lines name no catalogue item. */
export const SYSTEM_SKUS = ["COUPON", "SHIPPING", "SALES TAX", "STORE CREDIT"] as const;

export function isSystemSku(sku: string): boolean {
  return (SYSTEM_SKUS as readonly string[]).includes(sku.trim().toUpperCase());
}

export const DEFAULT_CONTACT_ID = 27111;
const CONTACT_BY_PAYMENT: Partial<Record<PaymentMethod, number>> = { pay_3: 27593, pay_5: 37457, pay_6: 38407 };
export const DEFAULT_SHIPPING_SERVICE = "GROUND_HOME_DELIVERY";
const MAX_LINE_ITEMS = 500;

/** A string cut to `max` characters: longer values are truncated, not rejected (spec 1, 4.1 rule 3). */
const cut = (max: number) => z.string().transform((value) => truncateCodePoints(value, max));
/** A string that must fit its column: longer values are rejected. */
const bounded = (max: number) => z.string().trim().min(1).max(max);

const address = z.object({
  first_name: cut(50),
  last_name: cut(50),
  company: cut(10).optional(),
  address1: cut(50),
  address2: cut(50).optional(),
  city: cut(30),
  state: cut(30),
  postal_code: cut(20),
  country: cut(10).optional(),
  phone: cut(30).optional(),
  email: z.email().transform((value) => truncateCodePoints(value, 58)),
});

/** DECIMAL(12, 2) money and DECIMAL(10, 3) weight columns bound what can be stored. */
const MONEY = 9_999_999_999.99;
const INT_MAX = 2_147_483_647;

const lineItem = z.object({
  line_number: z.number().int().min(1).max(INT_MAX),
  sku: bounded(64),
  quantity: z.number().int().min(1).max(INT_MAX),
  unit_price: z.number().min(-MONEY).max(MONEY),
  coupon_code: cut(50).optional(),
  discount_amount: z.number().min(0).max(MONEY).optional(),
  weight: z.number().min(0).max(9_999_999.999).optional(),
});

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** `YYYY-MM-DD` or a full ISO-8601 datetime (no zone means UTC); null when it is not a real date. */
function parseOrderDate(value: string): Date | null {
  const match = DATE_ONLY.exec(value) ?? DATE_TIME.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = "00", mi = "00", s = "00", zone] = match;
  const iso = `${y}-${mo}-${d}T${h}:${mi}:${s}${zone ? zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2") : "Z"}`;
  const date = new Date(iso);
  // Date accepts 2026-02-30 (rolling over); the calendar day must survive the round trip.
  const sameDay = new Date(`${y}-${mo}-${d}T00:00:00Z`);
  if (Number.isNaN(date.getTime()) || sameDay.toISOString().slice(0, 10) !== `${y}-${mo}-${d}`) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return date;
}

/** The request body schema: validates in `parseSubmission` and documents the route in OpenAPI. */
export const orderSubmissionSchema = z.object({
  order_number: z.string().trim().min(1).transform((value) => truncateCodePoints(value, 20)),
  date: z.string(),
  payment_method: z.enum(PAYMENT_METHODS),
  transaction_id: cut(20).optional(),
  contact_id: z.number().int().positive().max(INT_MAX).optional(),
  shipping_agent_code: bounded(20).optional(),
  shipping_agent_service: bounded(50).optional(),
  billing_address: address,
  shipping_address: address.optional(),
  line_items: z.array(lineItem).min(1).max(MAX_LINE_ITEMS),
});

type Address = z.output<typeof address>;

export interface NormalisedAddress {
  first_name: string;
  last_name: string;
  company: string | null;
  address1: string;
  address2: string | null;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  phone: string | null;
  email: string;
}

interface NormalisedLine {
  line: number;
  sku: string;
  quantity: number;
  price: number;
  coupon_code: string | null;
  discount_amount: number;
  weight: number;
}

export interface NormalisedOrder {
  number: string;
  dateadded: Date;
  payment_method: PaymentMethod;
  trans_id: string | null;
  contact_id: number;
  shipping_agent_code: string;
  shipping_agent_service: string;
  billing: NormalisedAddress;
  shipping: NormalisedAddress;
  lines: NormalisedLine[];
}

function normaliseAddress(input: Address): NormalisedAddress {
  return {
    first_name: input.first_name,
    last_name: input.last_name,
    company: input.company ?? null,
    address1: input.address1,
    address2: input.address2 ?? null,
    city: input.city,
    state: input.state,
    postal_code: input.postal_code,
    country: input.country || "US",
    phone: input.phone ?? null,
    email: input.email,
  };
}

/** JSON null for an optional member means "not given". */
function dropNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropNulls);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null).map(([k, v]) => [k, dropNulls(v)]));
}

function fieldName(path: PropertyKey[]): string {
  return path.reduce<string>((name, key) => (typeof key === "number" ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)), "");
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (node, key) => (node !== null && typeof node === "object" ? (node as Record<PropertyKey, unknown>)[key] : undefined),
    input,
  );
}

/**
 * Validates and normalises a submission. Errors, in this order: absent
 * required fields (400 rest_missing_callback_param, all of them named), bad
 * values (400 rest_invalid_param, all named), an unreadable date (400
 * invalid_date). `defaultCarrier` is the code used when none is given.
 */
export function parseSubmission(body: unknown, defaultCarrier: string): NormalisedOrder {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    throw errors.invalidParam("body", "must be a JSON object");
  }
  const input = dropNulls(body);
  const result = orderSubmissionSchema.safeParse(input);
  if (!result.success) {
    const missing: string[] = [];
    const invalid: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const name = fieldName(issue.path);
      // Whatever the check (an enum reports an absent value as a bad option), an absent value is missing.
      if (valueAt(input, issue.path) === undefined) missing.push(name);
      else invalid[name] ??= issue.message;
    }
    if (missing.length) throw errors.missingParams(missing);
    throw errors.invalidParams(invalid);
  }
  const data = result.data;
  const lines = [...data.line_items].sort((a, b) => a.line_number - b.line_number);
  const duplicate = lines.find((line, i) => i > 0 && lines[i - 1]!.line_number === line.line_number);
  if (duplicate) {
    throw errors.invalidParam("line_items", `line_number ${duplicate.line_number} is used more than once`);
  }
  const dateadded = parseOrderDate(data.date.trim());
  if (!dateadded) {
    throw new AppError(400, "invalid_date", `Invalid date: "${data.date}" is not YYYY-MM-DD or an ISO-8601 datetime.`, {
      params: { date: "must be YYYY-MM-DD or an ISO-8601 datetime" },
    });
  }
  const billing = normaliseAddress(data.billing_address);
  return {
    number: data.order_number,
    dateadded,
    payment_method: data.payment_method,
    trans_id: data.transaction_id ?? null,
    contact_id: data.contact_id ?? CONTACT_BY_PAYMENT[data.payment_method] ?? DEFAULT_CONTACT_ID,
    shipping_agent_code: data.shipping_agent_code ?? defaultCarrier,
    shipping_agent_service: data.shipping_agent_service ?? DEFAULT_SHIPPING_SERVICE,
    billing,
    shipping: data.shipping_address ? normaliseAddress(data.shipping_address) : billing,
    lines: lines.map((line) => ({
      line: line.line_number,
      sku: line.sku,
      quantity: line.quantity,
      price: line.unit_price,
      coupon_code: line.coupon_code ?? null,
      discount_amount: line.discount_amount ?? 0,
      weight: line.weight ?? 0,
    })),
  };
}

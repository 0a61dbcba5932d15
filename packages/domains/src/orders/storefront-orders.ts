import { z } from "zod";

/**
 * Storefront orders as external order submissions (spec 1, 2.1): the body an
 * ERP would have pushed, so an imported order goes through the intake's own
 * validation, truncation, SKU check and store. Charges and credits of the
 * order become the system SKU lines (SHIPPING, SALES TAX, COUPON, STORE
 * CREDIT). A storefront takes the payment itself, by card: `pay_1`.
 */
export type SubmissionBody = Record<string, unknown>;

const STOREFRONT_PAYMENT_METHOD = "pay_1";

const money = z.union([z.string(), z.number()]).transform((value) => Number(value) || 0);
const text = z.string().nullish().transform((value) => value ?? undefined);

function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

/** The order's charges and credits beyond its products, as system SKU lines numbered after them. */
function systemLines(first: number, amounts: { SHIPPING: number; "SALES TAX": number; COUPON: number; "STORE CREDIT": number }): SubmissionBody[] {
  return Object.entries(amounts)
    .filter(([, amount]) => amount > 0)
    .map(([sku, amount], i) => ({ line_number: first + i, sku, quantity: 1, unit_price: cents(amount) }));
}

// BigCommerce v2 orders, with `include=consignments.line_items` and `consignment_structure=object`.
const bcAddress = z.looseObject({
  first_name: z.string(),
  last_name: z.string(),
  company: text,
  street_1: z.string(),
  street_2: text,
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  country_iso2: text,
  phone: text,
  email: z.string(),
});
const bcOrder = z.looseObject({
  id: z.number().int(),
  date_created: z.string(),
  payment_provider_id: z.union([z.string(), z.number()]).nullish(),
  billing_address: bcAddress,
  shipping_cost_ex_tax: money.optional(),
  total_tax: money.optional(),
  coupon_discount: money.optional(),
  store_credit_amount: money.optional(),
  consignments: z
    .looseObject({
      shipping: z
        .array(bcAddress.partial().extend({ line_items: z.array(z.looseObject({ sku: z.string(), quantity: z.number().int(), price_ex_tax: money })) }))
        .optional(),
    })
    .optional(),
});

function bcAddressBody(address: Partial<z.infer<typeof bcAddress>>): SubmissionBody {
  return {
    first_name: address.first_name,
    last_name: address.last_name,
    company: address.company,
    address1: address.street_1,
    address2: address.street_2 || undefined,
    city: address.city,
    state: address.state,
    postal_code: address.zip,
    country: address.country_iso2,
    phone: address.phone || undefined,
    email: address.email,
  };
}

/** A storefront_a (BigCommerce) order as a submission; a shape it cannot read is a refusal the caller records. */
export function storefrontAOrderBody(raw: unknown): SubmissionBody {
  const order = bcOrder.parse(raw);
  const consignments = order.consignments?.shipping ?? [];
  const products = consignments.flatMap((consignment) => consignment.line_items);
  const first = consignments[0];
  return {
    order_number: String(order.id),
    date: new Date(order.date_created).toISOString(),
    payment_method: STOREFRONT_PAYMENT_METHOD,
    transaction_id: order.payment_provider_id ? String(order.payment_provider_id) : undefined,
    billing_address: bcAddressBody(order.billing_address),
    shipping_address: first ? bcAddressBody({ ...first, email: first.email || order.billing_address.email }) : undefined,
    line_items: [
      ...products.map((line, i) => ({ line_number: i + 1, sku: line.sku, quantity: line.quantity, unit_price: cents(line.price_ex_tax) })),
      ...systemLines(products.length + 1, {
        SHIPPING: order.shipping_cost_ex_tax ?? 0,
        "SALES TAX": order.total_tax ?? 0,
        COUPON: order.coupon_discount ?? 0,
        "STORE CREDIT": order.store_credit_amount ?? 0,
      }),
    ],
  };
}

// WooCommerce REST v3 orders.
const wooAddress = z.looseObject({
  first_name: z.string(),
  last_name: z.string(),
  company: text,
  address_1: z.string(),
  address_2: text,
  city: z.string(),
  state: z.string(),
  postcode: z.string(),
  country: text,
  phone: text,
  email: text,
});
const wooOrder = z.looseObject({
  number: z.string(),
  date_created_gmt: z.string(),
  transaction_id: text,
  billing: wooAddress,
  shipping: wooAddress.partial().optional(),
  line_items: z.array(z.looseObject({ sku: z.string().nullish(), quantity: z.number().int(), subtotal: money })),
  shipping_total: money.optional(),
  total_tax: money.optional(),
  discount_total: money.optional(),
});

function wooAddressBody(address: Partial<z.infer<typeof wooAddress>>, email: string | undefined): SubmissionBody {
  return {
    first_name: address.first_name,
    last_name: address.last_name,
    company: address.company || undefined,
    address1: address.address_1,
    address2: address.address_2 || undefined,
    city: address.city,
    state: address.state,
    postal_code: address.postcode,
    country: address.country || undefined,
    phone: address.phone || undefined,
    email,
  };
}

/** A storefront_b (WooCommerce) order as a submission; `subtotal` is the line before discounts, which go in as COUPON. */
export function storefrontBOrderBody(raw: unknown): SubmissionBody {
  const order = wooOrder.parse(raw);
  const email = order.billing.email;
  const shipping = order.shipping?.address_1 ? wooAddressBody(order.shipping, email) : undefined;
  return {
    order_number: order.number,
    date: `${order.date_created_gmt.replace(/Z?$/, "")}Z`,
    payment_method: STOREFRONT_PAYMENT_METHOD,
    transaction_id: order.transaction_id || undefined,
    billing_address: wooAddressBody(order.billing, email),
    shipping_address: shipping,
    line_items: [
      ...order.line_items.map((line, i) => ({ line_number: i + 1, sku: line.sku ?? "", quantity: line.quantity, unit_price: cents(line.subtotal / line.quantity) })),
      ...systemLines(order.line_items.length + 1, { SHIPPING: order.shipping_total ?? 0, "SALES TAX": order.total_tax ?? 0, COUPON: order.discount_total ?? 0, "STORE CREDIT": 0 }),
    ],
  };
}

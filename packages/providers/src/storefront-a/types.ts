import { z } from "zod";

/**
 * BigCommerce wire types the platform reads (loose: members we do not use
 * pass through). v2 answers bare arrays; v3 answers `{data, meta}`.
 */

/** Order status ids (spec 1, 3.4 names 9, 3, 2 and 10). */
export const ORDER_STATUS = { shipped: 2, partiallyShipped: 3, awaitingShipment: 9, completed: 10 } as const;

/** `GET /v2/store`: the members the platform reads. */
export const storeProfile = z.looseObject({
  id: z.string(),
  name: z.string(),
  domain: z.string(),
  secure_url: z.string().optional(),
  status: z.string().optional(),
});
export type StorefrontAStore = z.infer<typeof storeProfile>;

/** An order product (`/v2/orders/{id}/products`, or a consignment's `line_items`). */
export const orderProduct = z.looseObject({
  id: z.number().int(),
  order_id: z.number().int(),
  product_id: z.number().int(),
  variant_id: z.number().int().nullable().optional(),
  order_address_id: z.number().int(),
  sku: z.string(),
  type: z.string(),
  quantity: z.number(),
  quantity_shipped: z.number(),
});
export type StorefrontAOrderProduct = z.infer<typeof orderProduct>;

/**
 * A v2 order. With `include=consignments.line_items&consignment_structure=object`
 * its `consignments.shipping` lists each shipping address with the products
 * going there, which saves a `/products` call per order.
 */
export const order = z.looseObject({
  id: z.number().int(),
  status_id: z.number().int(),
  /** The status's name ("Awaiting Shipment"). */
  status: z.string().optional(),
  date_created: z.string().optional(),
  channel_id: z.number().int().optional(),
  consignments: z
    .looseObject({ shipping: z.array(z.looseObject({ id: z.number().int(), line_items: z.array(orderProduct) })).optional() })
    .optional(),
});
export type StorefrontAOrder = z.infer<typeof order>;

export const shipment = z.looseObject({
  id: z.number().int(),
  order_id: z.number().int(),
  order_address_id: z.number().int(),
  tracking_number: z.string(),
  tracking_carrier: z.string().optional(),
  shipping_provider: z.string().optional(),
  items: z.array(z.looseObject({ order_product_id: z.number().int(), quantity: z.number() })),
});
export type StorefrontAShipment = z.infer<typeof shipment>;

/** `POST /v2/orders/{id}/shipments`. */
export interface ShipmentInput {
  order_address_id: number;
  tracking_number: string;
  /** The shipping module; "" so BigCommerce builds the tracking link from `tracking_carrier` (it defaults to `custom`, which has none). */
  shipping_provider: "";
  /** One of BigCommerce's tracking-carrier values (e.g. `ups`, `fedex`); left out when the carrier is not mapped. */
  tracking_carrier?: string;
  items: { order_product_id: number; quantity: number }[];
}

/** Inventory tracking of a catalogue product: none, at product level, or per variant. */
export const catalogVariant = z.looseObject({
  id: z.number().int(),
  product_id: z.number().int(),
  sku: z.string(),
  inventory_level: z.number(),
});

export const catalogProduct = z.looseObject({
  id: z.number().int(),
  sku: z.string(),
  inventory_tracking: z.enum(["none", "product", "variant"]),
  inventory_level: z.number(),
  variants: z.array(catalogVariant).optional(),
});
export type StorefrontAProduct = z.infer<typeof catalogProduct>;

export const v3Page = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    data: z.array(item),
    meta: z.looseObject({ pagination: z.looseObject({ total: z.number(), current_page: z.number(), total_pages: z.number() }) }),
  });

/** One item of `PUT /v3/inventory/adjustments/absolute`: a variant, or a product tracked at product level. */
export type AbsoluteAdjustment = { location_id: number; quantity: number } & ({ variant_id: number } | { product_id: number });

/** Items one absolute adjustment may carry. */
export const MAX_ADJUSTMENT_ITEMS = 2000;

import { z } from "zod";

/** WooCommerce (wc/v3) and Shipment Tracking extension wire types the platform reads; other members pass through. */

/** `GET /wc/v3/system_status`: the members the platform reads. */
export const systemStatus = z.looseObject({
  environment: z.looseObject({
    site_url: z.string(),
    home_url: z.string().optional(),
    /** The WooCommerce version. */
    version: z.string(),
    wp_version: z.string().optional(),
  }),
  active_plugins: z.array(z.looseObject({ plugin: z.string(), name: z.string(), version: z.string() })).optional(),
  settings: z.looseObject({}).optional(),
});
export type StorefrontBSystemStatus = z.infer<typeof systemStatus>;

/** The Shipment Tracking extension's plugin file, as `active_plugins` lists it. */
export const SHIPMENT_TRACKING_PLUGIN = "woocommerce-shipment-tracking/woocommerce-shipment-tracking.php";
/** The order meta in which the extension keeps an order's tracking items (visible in the order's `meta_data`). */
export const TRACKING_ITEMS_META = "_wc_shipment_tracking_items";

export const trackingItem = z.looseObject({
  tracking_id: z.string(),
  tracking_number: z.string(),
  tracking_provider: z.string().optional(),
  custom_tracking_provider: z.string().optional(),
  date_shipped: z.union([z.string(), z.number()]).optional(),
});
export type TrackingItem = z.infer<typeof trackingItem>;

/** `POST /wc-shipment-tracking/v3/orders/{id}/shipment-trackings`. */
export interface TrackingInput {
  tracking_number: string;
  /** A provider the extension knows (it matches names case-insensitively); left out when the carrier is not mapped. */
  tracking_provider?: string;
  /** `YYYY-MM-DD`. */
  date_shipped?: string;
}

export const order = z.looseObject({
  id: z.number().int(),
  number: z.string(),
  status: z.string(),
  date_created: z.string().optional(),
  line_items: z.array(z.looseObject({ id: z.number().int(), sku: z.string().nullable().optional(), quantity: z.number() })),
  meta_data: z.array(z.looseObject({ key: z.string(), value: z.unknown() })).optional(),
});
export type StorefrontBOrder = z.infer<typeof order>;

export const orderNote = z.looseObject({ id: z.number().int(), note: z.string(), customer_note: z.boolean() });
export type OrderNote = z.infer<typeof orderNote>;

/** `manage_stock` of a variation may be `"parent"`: the parent product holds the stock. */
export const product = z.looseObject({
  id: z.number().int(),
  sku: z.string(),
  type: z.string(),
  /** A variation's product; 0 for a product. */
  parent_id: z.number().int().optional(),
  manage_stock: z.union([z.boolean(), z.literal("parent")]),
  stock_quantity: z.number().nullable(),
  variations: z.array(z.number().int()).optional(),
});
export type StorefrontBProduct = z.infer<typeof product>;

/** What a batch endpoint answers per item: the saved object, or `{id, error}`. */
export const batchAnswer = z.looseObject({
  update: z.array(z.looseObject({ id: z.number().int(), error: z.looseObject({ code: z.string(), message: z.string() }).optional() })).optional(),
});

/** Items one batch request may carry (WooCommerce answers 413 past it). */
export const MAX_BATCH_ITEMS = 100;

/** One item of a batch update; `error` is set when WooCommerce refused that item. */
export interface BatchResult {
  id: number;
  error?: string;
}

/**
 * WooCommerce has no numeric order statuses; the site's status filters keep
 * storefront_a's codes (spec 1, 3.4), read here as the WooCommerce status of
 * the same meaning. Awaiting shipment, awaiting fulfilment and partially
 * shipped are all `processing` (WooCommerce has no partly shipped state).
 */
const WOO_STATUS: Record<number, string> = {
  1: "pending",
  7: "pending",
  8: "processing",
  9: "processing",
  11: "processing",
  3: "processing",
  12: "on-hold",
  13: "on-hold",
  2: "completed",
  10: "completed",
  5: "cancelled",
  4: "refunded",
  14: "refunded",
  6: "failed",
};

/** The WooCommerce statuses of a site's status filters, and the codes that have none. */
export function wooStatuses(codes: number[]): { statuses: string[]; unknown: number[] } {
  return { statuses: [...new Set(codes.flatMap((code) => WOO_STATUS[code] ?? []))], unknown: codes.filter((code) => !(code in WOO_STATUS)) };
}

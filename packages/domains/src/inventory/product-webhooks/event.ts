import type { IncomingHttpHeaders } from "node:http";
import { truncateCodePoints } from "@mw/platform/text";
import { headerValue } from "./signature.ts";

/** What a product webhook says, read from either platform's delivery. */
export interface ProductEvent {
  /** WooCommerce `X-WC-Webhook-Topic` (`product.updated`), BigCommerce `scope` (`store/product/updated`). */
  event_type: string | null;
  /** The platform's delivery id: WooCommerce `X-WC-Webhook-Delivery-ID`, BigCommerce `hash`. */
  delivery_id: string | null;
  /** The storefront product whose stock to refresh; null when the event names none (an order, a category). */
  product_id: string | null;
  /** A deletion leaves no stock to push. */
  deleted: boolean;
}

function objectOf(value: unknown): Record<string, unknown> | null {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function idOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^[1-9]\d{0,19}$/.test(value.trim())) return value.trim();
  return null;
}

/** A WooCommerce product (the body itself): a variation's stock belongs to its parent product. */
function wooProductId(product: Record<string, unknown>): string | null {
  return idOf(product.parent_id) ?? idOf(product.id);
}

/**
 * BigCommerce wraps the resource in `data` ({type: product|sku, id, sku or
 * inventory: {product_id}}); an SKU event's own id is the SKU's, so its
 * product comes from the nested member. A `data` object without a type (the
 * spec's generic form) is read like a WooCommerce product.
 */
export function productIdOf(payload: Record<string, unknown>): string | null {
  const data = objectOf(payload.data);
  if (!data) return wooProductId(payload);
  const nested = idOf(objectOf(data.sku)?.product_id) ?? idOf(objectOf(data.inventory)?.product_id);
  if (data.type === "sku") return nested;
  if (data.type !== undefined && data.type !== "product") return null;
  return nested ?? wooProductId(data);
}

function text(value: unknown, max: number): string | null {
  return typeof value === "string" && value.trim() !== "" ? truncateCodePoints(value.trim(), max) : null;
}

export function describeProductEvent(payload: Record<string, unknown>, headers: IncomingHttpHeaders): ProductEvent {
  const eventType = text(headerValue(headers, "x-wc-webhook-topic"), 100) ?? text(payload.scope, 100);
  const delivery = text(headerValue(headers, "x-wc-webhook-delivery-id"), 200) ?? text(payload.hash, 200);
  return {
    event_type: eventType,
    delivery_id: delivery ? delivery.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 64) : null,
    product_id: productIdOf(payload),
    deleted: eventType !== null && /deleted$/i.test(eventType),
  };
}

import { createHmac } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { safeEqual, sha256Hex } from "@mw/platform/crypto";
import type { Platform } from "@mw/platform/prisma";

/** storefront_b (WooCommerce): base64 HMAC-SHA256 of the raw body, keyed with the hook's secret. */
const WOO_SIGNATURE_HEADER = "x-wc-webhook-signature";
/**
 * storefront_a (BigCommerce signs nothing, but a hook is registered with
 * custom `headers` it sends on every delivery): the site's webhook secret itself.
 */
const SHARED_SECRET_HEADER = "x-webhook-secret";

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function wooSignature(raw: Buffer, secret: string): string {
  return createHmac("sha256", secret).update(raw).digest("base64");
}

/** Whether a delivery proves it knows the site's webhook secret, compared in constant time. */
export function verifyProductWebhook(platform: Platform, raw: Buffer, headers: IncomingHttpHeaders, secret: string): boolean {
  if (platform === "storefront_b") {
    const given = headerValue(headers, WOO_SIGNATURE_HEADER);
    return given !== undefined && safeEqual(given, wooSignature(raw, secret));
  }
  const given = headerValue(headers, SHARED_SECRET_HEADER);
  // Compared as hashes, so the time taken does not depend on how much of the secret's length was guessed.
  return given !== undefined && safeEqual(sha256Hex(given), sha256Hex(secret));
}

/** WooCommerce's ping when a hook is saved: the form body `webhook_id=<id>`, unsigned. */
export function isWooPing(raw: Buffer): boolean {
  return raw.length < 64 && /^webhook_id=\d+$/.test(raw.toString("utf8").trim());
}

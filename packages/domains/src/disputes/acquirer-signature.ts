import { createHmac } from "node:crypto";
import { safeEqual } from "@mw/platform/crypto";

/** The header NMI signs its webhooks in. */
export const ACQUIRER_SIGNATURE_HEADER = "webhook-signature";

/**
 * NMI's webhook signature: `Webhook-Signature: t=<nonce>,s=<signature>`, the
 * signature being the hex HMAC-SHA256, with the merchant's signing key, of
 * the nonce, a dot and the raw body.
 */
export function acquirerSignature(signingKey: string, nonce: string, raw: Buffer): string {
  return createHmac("sha256", signingKey).update(`${nonce}.`).update(raw).digest("hex");
}

/** Whether `header` signs `raw` with `signingKey`; a missing or malformed header does not. */
export function acquirerSignatureValid(signingKey: string, header: string | undefined, raw: Buffer): boolean {
  const match = /^t=([^,\s]{1,200}),s=([0-9a-f]{64})$/i.exec(header?.trim() ?? "");
  if (!match) return false;
  const [, nonce, signature] = match as unknown as [string, string, string];
  return safeEqual(signature.toLowerCase(), acquirerSignature(signingKey, nonce, raw));
}

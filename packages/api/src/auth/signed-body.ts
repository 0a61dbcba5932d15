import type { IncomingMessage } from "node:http";
import { sha256Hex } from "@mw/platform";

/** SHA-256 of the bodies a signature covers (X-Ticket-Staff), kept only for those requests. */
const signedBodies = new WeakMap<IncomingMessage, string>();
const EMPTY_SHA256 = sha256Hex("");

/** Keeps the hash of the body bytes the JSON parser read, when the request carries X-Ticket-Staff (whose signature covers them). */
export function keepSignedBody(req: IncomingMessage, body: Buffer): void {
  if (req.headers["x-ticket-staff"] !== undefined) signedBodies.set(req, sha256Hex(body));
}

/**
 * The hex SHA-256 of the body bytes the JSON parser read for a request that
 * carries X-Ticket-Staff; of nothing when it read none (no body, or one that
 * is not JSON, which no route then sees either).
 */
export function signedBodySha256(req: IncomingMessage): string {
  return signedBodies.get(req) ?? EMPTY_SHA256;
}

import type { IncomingMessage } from "node:http";
import express, { type RequestHandler } from "express";
import { AppError, MAX_JSON_DEPTH, nestedDeeperThan, sha256Hex } from "@mw/platform";

/** SHA-256 of the bodies a signature covers (X-Ticket-Staff), kept only for those requests. */
const signedBodies = new WeakMap<IncomingMessage, string>();
const EMPTY_SHA256 = sha256Hex("");

/**
 * The hex SHA-256 of the body bytes this parser read for a request that
 * carries X-Ticket-Staff; of nothing when it read none (no body, or one that
 * is not JSON, which no route then sees either).
 */
export function signedBodySha256(req: IncomingMessage): string {
  return signedBodies.get(req) ?? EMPTY_SHA256;
}

/** The JSON body parser of every REST route: bounded in size and, before parsing, in nesting. */
export function jsonBody(limit: string): RequestHandler {
  return express.json({
    limit,
    verify: (req, _res, body) => {
      if (nestedDeeperThan(body)) throw new AppError(400, "rest_invalid_json", `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
      if (req.headers["x-ticket-staff"] !== undefined) signedBodies.set(req, sha256Hex(body));
    },
  });
}

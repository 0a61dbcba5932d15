import type { RequestHandler } from "express";
import { AppError } from "@mw/platform";

const HSTS = "max-age=31536000; includeSubDomains";

/**
 * "All endpoints require HTTPS in production" (spec 1, 5): behind the TLS
 * proxy (TRUST_PROXY), a request that reached it over plain HTTP is refused
 * before anything reads it, and HTTPS answers carry HSTS so browsers stop
 * trying plain HTTP. Mounted after the health routes: probes inside the
 * network stay plain.
 */
export function requireHttps(): RequestHandler {
  return (req, res, next) => {
    if (!req.secure) {
      throw new AppError(403, "rest_https_required", "HTTPS is required: send the request to the https:// address.");
    }
    res.set("Strict-Transport-Security", HSTS);
    next();
  };
}

import type { Request, Response } from "express";
import { addressAllowList, type Config, errors, safeEqual } from "@mw/platform";

/**
 * Who may read /metrics. With METRICS_TOKEN set, only a caller sending it as
 * a bearer token (401 otherwise). Without it: anyone outside production; in
 * production, only the client addresses of METRICS_ALLOW (loopback by
 * default: a scraper on the same host), 403 for the others. The counters name
 * queues, failure rates and volumes, which a payment-adjacent service does
 * not hand to whoever finds the URL.
 */
export function metricsAccess(config: Pick<Config, "METRICS_TOKEN" | "METRICS_ALLOW" | "NODE_ENV">): (req: Request, res: Response) => void {
  const token = config.METRICS_TOKEN;
  const allowed = addressAllowList(config.METRICS_ALLOW);
  return (req, res) => {
    if (token) {
      if (safeEqual(req.headers.authorization ?? "", `Bearer ${token}`)) return;
      res.set("WWW-Authenticate", 'Bearer realm="metrics"');
      throw errors.unauthorized("A metrics token is required.");
    }
    if (config.NODE_ENV === "production" && !allowed(req.ip)) {
      throw errors.forbidden("/metrics answers only the addresses of METRICS_ALLOW, or a caller with METRICS_TOKEN.");
    }
  };
}

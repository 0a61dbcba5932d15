import type { RequestHandler } from "express";
import { AppError, errors, safeEqual, type Config } from "@mw/platform";
import type { AppContext } from "../context.ts";
import { overWindowLimit } from "./window-limit.ts";

/**
 * Whether a scheduled endpoint may say why a run failed and name sites: only
 * when CRON_TOKEN is set, since every caller then proved itself. Without it
 * the endpoints are public (spec 2, 4.2) and their answers generic; the
 * detail is in the job (Bull Board, GET /queue) and the logs.
 */
export function cronAnswersInDetail(config: Pick<Config, "CRON_TOKEN">): boolean {
  return config.CRON_TOKEN !== undefined;
}

/**
 * The callers of the scheduled endpoints: at most SCHEDULED_RATE_LIMIT_PER_MINUTE
 * calls a minute per client address (Express's `req.ip`, so TRUST_PROXY
 * decides what counts as the address; all four endpoints together, counted
 * in Redis across API processes), and with CRON_TOKEN set only
 * `Authorization: Bearer <CRON_TOKEN>`. The header, not a query parameter:
 * a URL ends up in access logs and proxies' histories.
 */
export function cronCaller(ctx: Pick<AppContext, "config" | "hotRedis">): RequestHandler[] {
  const { config } = ctx;
  const handlers: RequestHandler[] = [];
  const perMinute = config.SCHEDULED_RATE_LIMIT_PER_MINUTE;
  if (perMinute > 0) {
    handlers.push(async (req, res, next) => {
      const retryAfter = await overWindowLimit(ctx.hotRedis, `${config.QUEUE_PREFIX}:ratelimit:scheduled:${req.ip ?? "unknown"}`, perMinute, 60_000);
      if (retryAfter !== null) {
        res.set("Retry-After", String(retryAfter));
        throw new AppError(429, "rate_limited", "Too many calls of the scheduled endpoints from this address; retry later.", { retry_after: retryAfter });
      }
      next();
    });
  }
  const token = config.CRON_TOKEN;
  if (token !== undefined) {
    handlers.push((req, res, next) => {
      if (!safeEqual(req.headers.authorization ?? "", `Bearer ${token}`)) {
        res.set("WWW-Authenticate", 'Bearer realm="scheduled"');
        throw errors.unauthorized("A cron token is required: Authorization: Bearer <CRON_TOKEN>.");
      }
      next();
    });
  }
  return handlers;
}

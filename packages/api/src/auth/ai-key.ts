import type { Request, RequestHandler } from "express";
import { AppError, safeEqual } from "@mw/platform";
import { resolvePrincipal } from "./authenticate.ts";
import type { AppContext } from "../context.ts";
import { overWindowLimit } from "./window-limit.ts";

function unauthorized(): AppError {
  return new AppError(401, "unauthorized", "A valid ai-security-key header is required.");
}

/**
 * Spec 2, 5: the `ai-security-key` header, compared in constant time with the
 * `ai_security_key` option; with the option unset every key is refused.
 * `sessions` lets a logged-in user with the session nonce in too (rewrite).
 */
export function aiCaller(ctx: Pick<AppContext, "config" | "options" | "prisma" | "redis" | "sessions">, options: { sessions: boolean }): RequestHandler {
  return async (req, _res, next) => {
    const sent = req.get("ai-security-key");
    if (sent !== undefined) {
      const expected = await ctx.options.get("ai_security_key");
      if (!expected || !safeEqual(sent, expected)) throw unauthorized();
      return next();
    }
    if (options.sessions && (await resolvePrincipal(ctx, req, { requireNonce: true }).catch(() => null))) return next();
    throw unauthorized();
  };
}

/**
 * Whose requests a rate limit counts: the CDN's connecting-IP header when the
 * request came from a proxy TRUST_PROXY trusts (the peer of the socket passes
 * Express's own trust check), else Express's `req.ip`: the address TRUST_PROXY's
 * hops or addresses lead to in X-Forwarded-For, or the socket's. From any
 * other peer the header is the caller's own text, and a caller who sent a
 * new address with every request would never be limited.
 */
export function clientAddress(req: Request): string {
  const trusts = req.app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  const peer = req.socket.remoteAddress;
  const cdn = peer !== undefined && trusts(peer, 0) ? req.get("cf-connecting-ip")?.trim() : undefined;
  return cdn || req.ip || "unknown";
}

/**
 * `ai_rate_limit` requests per `ai_rate_window` seconds per client address,
 * counted in Redis so every API process shares the count (a sliding window;
 * the key names the window's length, so a changed option starts afresh): both
 * figures are run-time options, which express-rate-limit fixes when the
 * limiter is built.
 */
export function aiRateLimit(ctx: Pick<AppContext, "config" | "hotRedis" | "options">): RequestHandler {
  return async (req, res, next) => {
    const [limit, windowSeconds] = await Promise.all([ctx.options.get("ai_rate_limit"), ctx.options.get("ai_rate_window")]);
    const key = `${ctx.config.QUEUE_PREFIX}:ai:rate:${clientAddress(req)}:${windowSeconds}`;
    const retryAfter = await overWindowLimit(ctx.hotRedis, key, limit, windowSeconds * 1000);
    if (retryAfter !== null) {
      res.set("Retry-After", String(retryAfter));
      throw new AppError(429, "rate_limited", `Too many AI requests from this address: at most ${limit} per ${windowSeconds} seconds. Retry in ${retryAfter} seconds.`, { retry_after: retryAfter });
    }
    next();
  };
}

import type { Request, Response } from "express";
import { AppError, errors } from "@mw/platform";
import { signIn, type Principal } from "@mw/domains/identity";
import { setSessionCookie } from "../../auth/cookies.ts";
import type { AppContext } from "../../context.ts";

/**
 * One way to start a browser session (REST login and the console's form): sets the cookie.
 * Throws 429 rate_limited (Retry-After set) or 403 for a wrong login or password.
 */
export async function startSession(ctx: Pick<AppContext, "config" | "logger" | "prisma" | "redis" | "sessions">, req: Request, res: Response, login: string, password: string): Promise<{ principal: Principal; nonce: string }> {
  const result = await signIn(ctx, { login, password, ip: req.ip ?? "unknown" });
  if (result.outcome === "throttled") {
    res.set("Retry-After", String(result.retryAfter));
    throw new AppError(429, "rate_limited", `Too many failed logins. Try again in ${result.retryAfter} seconds.`, { retry_after: result.retryAfter });
  }
  if (result.outcome === "refused") throw errors.forbidden("Invalid login or password.");
  setSessionCookie(res, ctx.config, result.sessionId);
  return { principal: result.principal, nonce: result.nonce };
}

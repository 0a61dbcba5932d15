import type { Request, RequestHandler, Response } from "express";
import { safeEqual, errors } from "@mw/shared";
import { verifyAppPassword, loadPrincipal, type Capability, type Principal } from "@mw/shared/identity";
import type { AppContext } from "../context.ts";
import { readSessionCookie } from "./cookies.ts";

function basicCredentials(req: Request): { login: string; password: string } | null {
  const header = req.headers.authorization;
  if (!header?.startsWith("Basic ")) return null;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function submittedNonce(req: Request): string | undefined {
  const header = req.headers["x-nonce"];
  if (typeof header === "string") return header;
  const body = req.body as { nonce?: unknown } | undefined;
  return typeof body?.nonce === "string" ? body.nonce : undefined;
}

export interface AuthOptions {
  /**
   * Whether a cookie session must send the session nonce: always on REST and
   * AJAX; per request where a UI that cannot send it is served (Bull Board).
   */
  requireNonce: boolean | ((req: Request) => boolean);
}

/** Who the request is, from HTTP Basic (application password) or a session cookie; null when anonymous. */
export async function resolvePrincipal(ctx: AppContext, req: Request, options: AuthOptions): Promise<Principal | null> {
  const basic = basicCredentials(req);
  if (req.headers.authorization && !basic) {
    if (req.headers.authorization.startsWith("Basic ")) throw errors.unauthorized("Malformed Basic credentials.");
    return null;
  }
  if (basic) {
    const principal = await verifyAppPassword(ctx.prisma, basic.login, basic.password);
    if (!principal) throw errors.unauthorized("Invalid or revoked application password.");
    return principal;
  }
  const sessionId = readSessionCookie(req);
  if (!sessionId) return null;
  const session = await ctx.sessions.get(sessionId);
  if (!session) return null;
  if (typeof options.requireNonce === "function" ? options.requireNonce(req) : options.requireNonce) {
    const nonce = submittedNonce(req);
    if (!nonce || !safeEqual(nonce, session.nonce)) {
      throw errors.forbidden("Cookie check failed: missing or invalid X-Nonce header.");
    }
  }
  return loadPrincipal(ctx.prisma, session.userId);
}

export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw errors.unauthorized();
  return principal;
}

/**
 * Requires an authenticated principal holding `capability` (or any principal
 * when null): 401 when anonymous, 403 when the capability is missing.
 */
export function requireCapability(ctx: AppContext, capability: Capability | null, options: AuthOptions = { requireNonce: true }): RequestHandler {
  return async (req, res, next) => {
    const principal = await resolvePrincipal(ctx, req, options);
    if (!principal) throw errors.unauthorized();
    if (capability && !principal.capabilities.includes(capability)) {
      throw errors.forbidden();
    }
    res.locals.principal = principal;
    next();
  };
}

import type { Request, RequestHandler, Response } from "express";
import { safeEqual, errors } from "@mw/platform";
import { resumeSession, verifyAppPassword, verifyTicketStaff, type Capability, type Principal } from "@mw/domains/identity";
import type { AppContext } from "../context.ts";
import { signedBodySha256 } from "./signed-body.ts";
import { readSessionCookie } from "./cookies.ts";
import { asCaller } from "./caller-reads.ts";

function basicCredentials(req: Request): { login: string; password: string } | null {
  const header = req.headers.authorization;
  if (!header?.startsWith("Basic ")) return null;
  const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return null;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** The session nonce: `X-Nonce`, the `_wpnonce` query parameter (design 10.8: EventSource cannot send headers), or a form's `nonce`. */
function submittedNonce(req: Request): string | undefined {
  const header = req.headers["x-nonce"];
  if (typeof header === "string") return header;
  const query = req.query._wpnonce;
  if (typeof query === "string") return query;
  const body = req.body as { nonce?: unknown } | undefined;
  return typeof body?.nonce === "string" ? body.nonce : undefined;
}

export interface AuthOptions {
  /**
   * Whether a cookie session must send the session nonce: always on REST and
   * AJAX; per request where a UI that cannot send it is served (Bull Board).
   */
  requireNonce: boolean | ((req: Request) => boolean);
  /**
   * What a request without valid credentials gets: REST routes answer 403
   * rest_forbidden (spec 1, 5); Bull Board answers 401 with a Basic challenge
   * so a script or a browser without a session can still authenticate.
   */
  refuseWith?: "forbidden" | "challenge";
}

function refusal(options: AuthOptions, message: string) {
  return options.refuseWith === "challenge" ? errors.unauthorized(message) : errors.forbidden(message);
}

/** Where the ticket system's plugin speaks for its agents (spec 2, 4.5 and 4.6). */
const TICKET_STAFF_ROOT = "/scp/ajax.php/";

/**
 * An agent of the ticket system, vouched for by its plugin with the agent
 * signing secret (`X-Ticket-Staff`, see ticket-staff.ts); only on the staff
 * AJAX root. A replayed signature is 401, the other refusals 403.
 */
async function ticketSystemStaff(ctx: Pick<AppContext, "config" | "prisma" | "redis">, req: Request, header: string, options: AuthOptions): Promise<Principal> {
  if (!req.originalUrl.startsWith(TICKET_STAFF_ROOT)) throw refusal(options, "X-Ticket-Staff is not accepted here.");
  const verified = await verifyTicketStaff(ctx, header, { method: req.method, path: req.originalUrl, bodySha256: signedBodySha256(req) });
  if (verified.outcome === "replayed") throw errors.unauthorized(verified.reason);
  if (verified.outcome === "refused") throw refusal(options, verified.reason);
  return verified.principal;
}

/** Who the request is, from HTTP Basic (application password), the ticket system's signed agent, or a session cookie; null when anonymous. */
export async function resolvePrincipal(ctx: Pick<AppContext, "config" | "prisma" | "redis" | "sessions">, req: Request, options: AuthOptions): Promise<Principal | null> {
  const ticketStaff = req.get("x-ticket-staff");
  if (ticketStaff !== undefined) return ticketSystemStaff(ctx, req, ticketStaff, options);
  const basic = basicCredentials(req);
  if (req.headers.authorization && !basic) {
    if (req.headers.authorization.startsWith("Basic ")) throw refusal(options, "Malformed Basic credentials.");
    return null;
  }
  if (basic) {
    const principal = await verifyAppPassword(ctx, basic.login, basic.password);
    if (!principal) throw refusal(options, "Invalid or revoked application password.");
    return principal;
  }
  const sessionId = readSessionCookie(req);
  if (!sessionId) return null;
  const session = await resumeSession(ctx, sessionId);
  if (!session) return null;
  if (typeof options.requireNonce === "function" ? options.requireNonce(req) : options.requireNonce) {
    const nonce = submittedNonce(req);
    if (!nonce || !safeEqual(nonce, session.nonce)) {
      throw errors.forbidden("Cookie check failed: missing or invalid X-Nonce header.");
    }
  }
  return session.principal;
}

/**
 * Whether a long-lived answer (a stream) may go on for `principal`: a cookie
 * session that has since ended (logout, expiry, a new password) ends it too.
 * Other credentials were checked when the request came in.
 */
export async function stillSignedIn(ctx: Pick<AppContext, "prisma" | "sessions">, req: Request, principal: Principal): Promise<boolean> {
  if (principal.via !== "session") return true;
  const sessionId = readSessionCookie(req);
  return sessionId !== undefined && (await resumeSession(ctx, sessionId)) !== null;
}

/** The signed-in user's staff id (design 10.1), for staff AJAX: 403 for a user not linked to a staff member. */
export function staffIdOf(res: Response): number {
  const { staffId, login } = principalOf(res);
  if (staffId === null) throw errors.forbidden(`Your user is not linked to a staff member: an administrator links it with pnpm cli user:grant ${login} staff --staff-id ID.`);
  return staffId;
}

export function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw errors.forbidden("Authentication required.");
  return principal;
}

/**
 * Requires an authenticated principal holding `capability` (one of them, for
 * a list; any principal when null): 403 rest_forbidden otherwise (401 with a challenge where
 * `refuseWith` asks for it and no credentials were good).
 */
export function requireCapability(ctx: Pick<AppContext, "config" | "prisma" | "redis" | "sessions" | "callerWrites">, capability: Capability | Capability[] | null, options: AuthOptions = { requireNonce: true }): RequestHandler {
  const accepted = capability === null ? null : [capability].flat();
  return async (req, res, next) => {
    const principal = await resolvePrincipal(ctx, req, options);
    if (!principal) throw refusal(options, "Authentication required.");
    if (accepted && !accepted.some((held) => principal.capabilities.includes(held))) {
      throw errors.forbidden();
    }
    res.locals.principal = principal;
    asCaller(ctx, req, res, callerOf(principal), next);
  };
}

/** Who a principal is for reading its own writes: the user (each of its sessions and application passwords), or the ticket system's agent. */
export function callerOf(principal: Principal): string {
  return principal.userId !== null ? `user:${principal.userId}` : `login:${principal.login}`;
}

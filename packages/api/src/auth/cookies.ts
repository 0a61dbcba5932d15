import { parse, serialize } from "cookie";
import type { Request, Response } from "express";
import type { Config } from "@mw/platform";

export const SESSION_COOKIE = "mw_session";

export function readSessionCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header ? parse(header)[SESSION_COOKIE] : undefined;
}

/** The nonce of a Harvest connect link, held by the browser that asked for it (timetracking/connect-url). */
export const CONNECT_COOKIE = "mw_harvest_connect";

const secure = (config: Config) => config.COOKIE_SECURE ?? config.NODE_ENV === "production";

/** SameSite=Strict: a cross-site request never carries the session, on top of the nonce check. */
export function setSessionCookie(res: Response, config: Config, sessionId: string | null): void {
  res.append(
    "Set-Cookie",
    serialize(SESSION_COOKIE, sessionId ?? "", {
      httpOnly: true,
      sameSite: "strict",
      secure: secure(config),
      path: "/",
      maxAge: sessionId ? config.SESSION_TTL_SECONDS : 0,
    }),
  );
}

export function readConnectCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header ? parse(header)[CONNECT_COOKIE] : undefined;
}

/**
 * The connect link's nonce, sent only to the OAuth callback (`path`). Lax,
 * not Strict: the callback is a top-level navigation coming back from
 * Harvest's site, which a Strict cookie would not survive. Null clears it.
 */
export function setConnectCookie(res: Response, config: Config, path: string, nonce: string | null, maxAgeSeconds: number): void {
  res.append("Set-Cookie", serialize(CONNECT_COOKIE, nonce ?? "", { httpOnly: true, sameSite: "lax", secure: secure(config), path, maxAge: nonce ? maxAgeSeconds : 0 }));
}

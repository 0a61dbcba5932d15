import { parse, serialize } from "cookie";
import type { Request, Response } from "express";
import type { Config } from "@mw/platform";

export const SESSION_COOKIE = "mw_session";

export function readSessionCookie(req: Request): string | undefined {
  const header = req.headers.cookie;
  return header ? parse(header)[SESSION_COOKIE] : undefined;
}

/** SameSite=Strict: a cross-site request never carries the session, on top of the nonce check. */
export function setSessionCookie(res: Response, config: Config, sessionId: string | null): void {
  res.append(
    "Set-Cookie",
    serialize(SESSION_COOKIE, sessionId ?? "", {
      httpOnly: true,
      sameSite: "strict",
      secure: config.COOKIE_SECURE ?? config.NODE_ENV === "production",
      path: "/",
      maxAge: sessionId ? config.SESSION_TTL_SECONDS : 0,
    }),
  );
}

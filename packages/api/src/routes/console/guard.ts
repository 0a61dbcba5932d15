import type { Request, RequestHandler, Response } from "express";
import { AppError, safeEqual } from "@mw/platform";
import { resumeSession, type Capability } from "@mw/domains/identity";
import { readSessionCookie } from "../../auth/cookies.ts";
import type { AppContext } from "../../context.ts";
import { sameOriginPath } from "../../http/same-origin-path.ts";
import { callerOf } from "../../auth/authenticate.ts";
import { asCaller } from "../../auth/caller-reads.ts";
import { CONSOLE_PATH, holds, renderPage, type Viewer } from "./render.ts";

/** The signed-in user of a console request: the session cookie only (the console is for browsers). */
export async function viewerOf(ctx: Pick<AppContext, "prisma" | "sessions">, req: Request): Promise<Viewer | null> {
  const sessionId = readSessionCookie(req);
  return sessionId ? resumeSession(ctx, sessionId) : null;
}

export function viewer(res: Response): Viewer {
  return res.locals.viewer as Viewer;
}

/** A path on this host to go back to after signing in; anything else goes to the console's start. */
export function safeNext(next: unknown): string {
  return sameOriginPath(next) ?? CONSOLE_PATH;
}

/**
 * Design 10.8: pages are readable with the SameSite=Strict session cookie;
 * every form posts the session nonce. Without a session a browser is sent to
 * sign in; a user without the capability gets a page saying which one.
 */
export function signedIn(ctx: Pick<AppContext, "prisma" | "sessions" | "callerWrites">, allowed: readonly Capability[] | null): RequestHandler {
  return async (req, res, next) => {
    const found = await viewerOf(ctx, req);
    if (!found) {
      if (req.method === "GET") {
        res.redirect(303, `${CONSOLE_PATH}/login?next=${encodeURIComponent(req.originalUrl)}`);
        return;
      }
      throw new AppError(403, "rest_forbidden", "Your session has ended. Sign in again.");
    }
    res.locals.viewer = found;
    if (req.method !== "GET") {
      const nonce = (req.body as { nonce?: unknown } | undefined)?.nonce;
      if (typeof nonce !== "string" || !safeEqual(nonce, found.nonce)) {
        throw new AppError(403, "rest_forbidden", "This form has expired (its security token does not match your session). Reload the page and try again.");
      }
    }
    if (allowed && !holds(found.principal, allowed)) {
      renderPage(res, "lacking", { title: "Not allowed", allowed }, 403);
      return;
    }
    asCaller(ctx, req, res, callerOf(found.principal), next);
  };
}

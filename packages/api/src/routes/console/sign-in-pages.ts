import express, { type Request, type Router } from "express";
import { AppError } from "@mw/platform";
import { readSessionCookie, setSessionCookie } from "../../auth/cookies.ts";
import type { AppContext } from "../../context.ts";
import { sameOrigin } from "../../http/same-origin-path.ts";
import { startSession } from "../identity/sign-in.ts";
import { safeNext, signedIn, viewer, viewerOf } from "./guard.ts";
import { CONSOLE_PATH, holds, NAV, renderPage } from "./render.ts";

function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : "";
}

/** Sign in with a plain form (works without scripts), sign out, and the console's start page. */
export function signInPages(ctx: Pick<AppContext, "config" | "logger" | "prisma" | "redis" | "sessions">): Router {
  const router = express.Router();

  router.get("/login", async (req, res) => {
    if (await viewerOf(ctx, req)) {
      res.redirect(303, safeNext(req.query.next));
      return;
    }
    renderPage(res, "login", { title: "Sign in", next: safeNext(req.query.next), login: "", error: null });
  });

  router.post("/login", async (req, res) => {
    // No session yet, so no nonce: the browser's Origin must be this host (no signing people in from elsewhere).
    if (!sameOrigin(req)) throw new AppError(403, "rest_forbidden", "Sign in from this site's own sign-in page.");
    const login = field(req, "login").trim();
    const next = safeNext(field(req, "next"));
    const again = (error: string, status: number) => renderPage(res, "login", { title: "Sign in", next, login, error }, status);
    if (!login || !field(req, "password")) {
      again("Enter your login and password.", 400);
      return;
    }
    try {
      await startSession(ctx, req, res, login.slice(0, 60), field(req, "password").slice(0, 1024));
    } catch (error) {
      if (error instanceof AppError && (error.status === 403 || error.status === 429)) {
        again(error.message, error.status);
        return;
      }
      throw error;
    }
    res.redirect(303, next);
  });

  router.post("/logout", signedIn(ctx, null), async (req, res) => {
    const sessionId = readSessionCookie(req);
    if (sessionId) await ctx.sessions.destroy(sessionId);
    setSessionCookie(res, ctx.config, null);
    res.redirect(303, `${CONSOLE_PATH}/login`);
  });

  router.get("/", signedIn(ctx, null), (_req, res) => {
    const first = NAV.find((item) => holds(viewer(res).principal, item.allowed));
    if (first) res.redirect(303, first.href);
    else renderPage(res, "lacking", { title: "Not allowed", allowed: NAV.flatMap((item) => item.allowed).filter((c, i, all) => all.indexOf(c) === i) }, 403);
  });
  return router;
}

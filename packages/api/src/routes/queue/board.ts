import { createBullBoard } from "@bull-board/api";
import type { BoardHooks } from "@bull-board/api/typings/app";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import type { RequestHandler, Router } from "express";
import express from "express";
import { BOARD_PATH } from "@mw/platform";
import type { Capability } from "@mw/domains/identity";
import { requireCapability, resolvePrincipal } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import { sameOrigin } from "../../http/same-origin-path.ts";
import { viewerOf } from "../console/guard.ts";
import { holds, renderPage } from "../console/render.ts";
import { isPageNavigation, LOGIN_PATH } from "../identity/login-page.ts";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

// The page must render with no internet access: Bull Board's template asks Google
// Fonts for IBM Plex, and a browser without a route out waits on it.
// eslint-disable-next-line linear/no-rescanning-search -- runs on Bull Board's own page template, never on request or customer text
const EXTERNAL_FONTS = /<link[^>]+fonts\.googleapis\.com[^>]*>\s*/g;
const BOARD_CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; frame-ancestors 'none'";

const offlinePage: RequestHandler = (_req, res, next) => {
  res.set("Content-Security-Policy", BOARD_CSP);
  const render = res.render.bind(res);
  res.render = ((view: string, options?: object) =>
    render(view, options ?? {}, (error: Error | null, html?: string) => (error ? next(error) : res.send(html!.replace(EXTERNAL_FONTS, ""))))) as typeof res.render;
  next();
};

const BOARD_CAPABILITIES: readonly Capability[] = ["manage_middleware"];

/**
 * A browser with no session goes to the sign-in page, and a signed-in user without the
 * capability gets the console's page naming it; scripts keep the Basic challenge and the JSON error.
 */
function pagesForBrowsers(ctx: Pick<AppContext, "config" | "prisma" | "redis" | "sessions">): RequestHandler {
  return async (req, res, next) => {
    if (!isPageNavigation(req) || req.headers.authorization) return next();
    const principal = await resolvePrincipal(ctx, req, { requireNonce: false });
    if (!principal) {
      res.redirect(303, `${LOGIN_PATH}?next=${encodeURIComponent(req.originalUrl)}`);
      return;
    }
    const session = holds(principal, BOARD_CAPABILITIES) ? null : await viewerOf(ctx, req);
    if (session) {
      res.locals.viewer = session;
      renderPage(res, "lacking", { title: "Not allowed", allowed: BOARD_CAPABILITIES }, 403);
      return;
    }
    next();
  };
}

/**
 * The board's calls that write a job's data: adding a job and replacing a
 * job's data. A worker trusts what it finds in its queue, so an operator who
 * could write data could make the worker call any URL or mail anything
 * (a `chat-message` job's webhook, an `alert-email`). Jobs come only from
 * the platform's own producers; retry, promote, clean and the rest stay.
 */
const WRITES_JOB_DATA = new Set(["post /api/queues/:queueName/add", "patch /api/queues/:queueName/:jobId/update-data"]);

const refuseJobData: BoardHooks = {
  before: ({ method, route }) =>
    WRITES_JOB_DATA.has(`${method} ${route}`)
      ? { allow: false, status: 403, message: "Jobs and their data come only from the platform; adding a job or changing its data is turned off." }
      : undefined,
};

/**
 * Bull Board over every queue, for operators with manage_middleware (Basic or
 * session). Its UI cannot send our nonce, so a cookie session's state-changing
 * call (retry, promote, clean, remove) must come from a page of this host as
 * the browser reports it, or carry the nonce; the SameSite=Strict cookie alone
 * let any same-site tool or a cookie-replaying client through.
 */
export function boardRoutes(ctx: Pick<AppContext, "config" | "prisma" | "queues" | "redis" | "sessions">): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BOARD_PATH);
  createBullBoard({
    queues: ctx.queues.all().map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
    options: { uiConfig: { boardTitle: "Middleware queues" }, handlerHooks: refuseJobData },
  });
  const router = express.Router();
  router.use(
    BOARD_PATH,
    (_req, res, next) => {
      res.locals.route = `${BOARD_PATH}/*`;
      next();
    },
    pagesForBrowsers(ctx),
    requireCapability(ctx, [...BOARD_CAPABILITIES], { requireNonce: (req) => !READS.has(req.method) && !sameOrigin(req), refuseWith: "challenge" }),
    offlinePage,
    serverAdapter.getRouter(),
  );
  return router;
}

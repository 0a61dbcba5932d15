import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import type { Request, Router } from "express";
import express from "express";
import { requireCapability } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";

export const BOARD_PATH = "/admin/queues";

const READS = new Set(["GET", "HEAD", "OPTIONS"]);

/** True when the browser says the request comes from a page of this very host (Origin, else Referer). */
function sameOrigin(req: Request): boolean {
  const source = req.headers.origin ?? req.headers.referer;
  if (!source) return false;
  try {
    return new URL(source).host === req.get("host");
  } catch {
    return false;
  }
}

/**
 * Bull Board over every queue, for operators with manage_middleware (Basic or
 * session). Its UI cannot send our nonce, so a cookie session's state-changing
 * call (retry, promote, clean, remove) must come from a page of this host as
 * the browser reports it, or carry the nonce; the SameSite=Strict cookie alone
 * let any same-site tool or a cookie-replaying client through.
 */
export function boardRoutes(ctx: AppContext): Router {
  const serverAdapter = new ExpressAdapter();
  serverAdapter.setBasePath(BOARD_PATH);
  createBullBoard({
    queues: ctx.queues.all().map((queue) => new BullMQAdapter(queue)),
    serverAdapter,
    options: { uiConfig: { boardTitle: "Middleware queues" } },
  });
  const router = express.Router();
  router.use(
    BOARD_PATH,
    (_req, res, next) => {
      res.locals.route = `${BOARD_PATH}/*`;
      next();
    },
    requireCapability(ctx, "manage_middleware", { requireNonce: (req) => !READS.has(req.method) && !sameOrigin(req) }),
    serverAdapter.getRouter(),
  );
  return router;
}

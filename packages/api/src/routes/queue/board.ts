import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import { ExpressAdapter } from "@bull-board/express";
import type { Router } from "express";
import express from "express";
import { requireCapability } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";

export const BOARD_PATH = "/admin/queues";

/**
 * Bull Board over every queue, for operators with manage_middleware (Basic or
 * session). Its UI cannot send our nonce; the SameSite=Strict session cookie
 * keeps other sites from driving it.
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
    requireCapability(ctx, "manage_middleware", { requireNonce: false }),
    serverAdapter.getRouter(),
  );
  return router;
}

import express, { type Router } from "express";
import { z } from "zod";
import { disputeByCase } from "@mw/shared/disputes";
import { orderLifecyclesByNumber, systemStats } from "@mw/shared/orders";
import type { AppContext } from "../../context.ts";
import { JOB_STATES, jobCountsByQueue } from "../../http/metrics.ts";
import { BOARD_PATH } from "../queue/board.ts";
import { signedIn, viewer } from "./guard.ts";
import { findJobsByKey, KEY_KINDS, type KeyKind } from "./job-search.ts";
import { renderPage } from "./render.ts";
import { operationsTrends } from "./trends.ts";

const search = z.object({
  kind: z.enum(Object.keys(KEY_KINDS) as [KeyKind, ...KeyKind[]]).catch("order"),
  key: z.string().trim().max(191).catch(""),
});

/** The operators' page: /stats, the queues by state (the /metrics source), links, jobs and lifecycles by business key, and the trends. */
export function operationsPages(ctx: AppContext): Router {
  const router = express.Router();
  const operators = signedIn(ctx, ["manage_middleware"]);

  router.get("/operations", operators, async (req, res) => {
    const query = search.parse(req.query);
    const [stats, queues, jobs, orders, dispute] = await Promise.all([
      systemStats(ctx),
      jobCountsByQueue(ctx.queues),
      query.key ? findJobsByKey(ctx, query.kind, query.key) : null,
      query.key && query.kind === "order" ? orderLifecyclesByNumber(ctx, query.key) : [],
      query.key && query.kind === "case" ? disputeByCase(ctx, query.key) : null,
    ]);
    const trends = await operationsTrends(ctx, viewer(res).nonce);
    renderPage(res, "operations", { title: "Operations", stats, queues, states: JOB_STATES, kinds: KEY_KINDS, query, jobs, orders, dispute, trends, boardPath: BOARD_PATH });
  });
  return router;
}

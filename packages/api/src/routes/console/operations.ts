import express, { type Router } from "express";
import { z } from "zod";
import { formatDateTime } from "@mw/shared";
import { orderCounts, recentSyncErrors } from "@mw/shared/orders";
import { siteCounts } from "@mw/shared/sites";
import type { AppContext } from "../../context.ts";
import { JOB_STATES, jobCountsByQueue } from "../../http/metrics.ts";
import { BOARD_PATH } from "../queue/board.ts";
import { signedIn } from "./guard.ts";
import { findJobsByKey, KEY_KINDS, type KeyKind } from "./job-search.ts";
import { renderPage } from "./render.ts";

const search = z.object({
  kind: z.enum(Object.keys(KEY_KINDS) as [KeyKind, ...KeyKind[]]).catch("order"),
  key: z.string().trim().max(191).catch(""),
});

const RECENT_ERRORS = 10;

/** The numbers of GET /stats: sites, orders waiting, and the failures of the last day. */
async function operatorStats(ctx: AppContext) {
  const [sites, orders, errors] = await Promise.all([siteCounts(ctx), orderCounts(ctx), recentSyncErrors(ctx, RECENT_ERRORS)]);
  return { sites, orders, errors: { count: errors.count, recent: errors.recent.map((row) => ({ ...row, created_at: formatDateTime(row.created_at)! })) } };
}

/** The operators' page: /stats, the queues by state (the /metrics source), links, and jobs by business key. */
export function operationsPages(ctx: AppContext): Router {
  const router = express.Router();
  const operators = signedIn(ctx, ["manage_middleware"]);

  router.get("/operations", operators, async (req, res) => {
    const query = search.parse(req.query);
    const [stats, queues, jobs] = await Promise.all([operatorStats(ctx), jobCountsByQueue(ctx.queues), query.key ? findJobsByKey(ctx, query.kind, query.key) : null]);
    renderPage(res, "operations", { title: "Operations", stats, queues, states: JOB_STATES, kinds: KEY_KINDS, query, jobs, boardPath: BOARD_PATH });
  });
  return router;
}

import express, { type Router } from "express";
import { z } from "zod";
import { BOARD_PATH, errors } from "@mw/platform";
import { disputeByCase } from "@mw/domains/disputes";
import { dismissOperatorAlert, resendOperatorAlert, undeliveredOperatorAlerts } from "@mw/domains/notifications";
import { orderLifecyclesByNumber, systemStats } from "@mw/domains/orders";
import { recentRecipientChanges } from "@mw/domains/tickets";
import type { AppContext } from "../../context.ts";
import { JOB_STATES, jobCountsByQueue } from "../../http/metrics.ts";
import { signedIn, viewer } from "./guard.ts";
import { findJobsByKey, KEY_KINDS, type KeyKind } from "./job-search.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";
import { operationsTrends } from "./trends.ts";

const search = z.object({
  kind: z.enum(Object.keys(KEY_KINDS) as [KeyKind, ...KeyKind[]]).catch("order"),
  key: z.string().trim().max(191).catch(""),
});

const alertAction = z.object({ id: z.coerce.number().int().positive(), action: z.enum(["resend", "dismiss"]) });

/** The operators' page: alerts that reached nobody, staff directory changes that moved where alerts go, /stats, the queues by state (the /metrics source), links, jobs and lifecycles by business key, and the trends. */
export function operationsPages(ctx: Pick<AppContext, "config" | "logger" | "prisma" | "queues" | "replica" | "sessions">): Router {
  const router = express.Router();
  const operators = signedIn(ctx, ["manage_middleware"]);

  router.get("/operations", operators, async (req, res) => {
    const query = search.parse(req.query);
    const [stats, queues, jobs, orders, dispute, undelivered, recipientChanges] = await Promise.all([
      systemStats(ctx),
      jobCountsByQueue(ctx.queues),
      query.key ? findJobsByKey(ctx, query.kind, query.key) : null,
      query.key && query.kind === "order" ? orderLifecyclesByNumber(ctx, query.key) : [],
      query.key && query.kind === "case" ? disputeByCase(ctx, query.key) : null,
      undeliveredOperatorAlerts(ctx),
      recentRecipientChanges(ctx),
    ]);
    const trends = await operationsTrends(ctx, viewer(res).nonce);
    const done = typeof req.query.alert === "string" && ["resent", "dismissed"].includes(req.query.alert) ? req.query.alert : null;
    renderPage(res, "operations", { title: "Operations", stats, queues, states: JOB_STATES, kinds: KEY_KINDS, query, jobs, orders, dispute, trends, undelivered, recipientChanges, done, boardPath: BOARD_PATH });
  });

  // Resend tries the operator channels again; dismiss is the operator's decision that it needs none.
  router.post("/operations/alerts", operators, async (req, res) => {
    const parsed = alertAction.safeParse(req.body);
    if (!parsed.success) throw errors.invalidInput("Choose an alert and resend or dismiss.");
    const by = viewer(res).principal.login;
    const { id, action } = parsed.data;
    const changed = action === "resend" ? (await resendOperatorAlert(ctx, id, by)) === "queued" : await dismissOperatorAlert(ctx, id, by);
    if (!changed) throw errors.conflict("alert_resolved", "This alert is no longer undelivered: it was resent or dismissed already.");
    ctx.logger.info(`undelivered alert ${action === "resend" ? "resent" : "dismissed"} in the console`, { alert_id: id, login: by });
    res.redirect(303, `${CONSOLE_PATH}/operations?alert=${action === "resend" ? "resent" : "dismissed"}#undelivered-alerts`);
  });
  return router;
}

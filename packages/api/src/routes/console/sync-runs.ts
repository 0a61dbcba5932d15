import express, { type Router } from "express";
import { AppError, errors } from "@mw/platform";
import { listSites, listSyncRuns, SYNC_RUN_COUNTS, SYNC_RUN_STATUSES, type SyncKind } from "@mw/domains/sites";
import { queueTrackingSync } from "@mw/domains/tracking";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageWindow } from "../../http/pagination.ts";
import { trackingStatusView } from "../tracking/tracking.ts";
import { signedIn, viewer } from "./guard.ts";
import { pager, PER_PAGE } from "./pager.ts";
import { CONSOLE_PATH, renderPage } from "./render.ts";

const KINDS = Object.keys(SYNC_RUN_COUNTS) as [SyncKind, ...SyncKind[]];

// GET /sync-runs' filters; one the page cannot use is dropped rather than refused.
const filters = z.object({
  site_id: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
  kind: z.enum(KINDS).optional().catch(undefined),
  status: z.enum(SYNC_RUN_STATUSES).optional().catch(undefined),
  page: pageQuery.shape.page.catch(1),
});

const siteForm = z.object({ site_id: z.coerce.number().int().positive().max(2_147_483_647) });

/** A site's tracking state as GET /tracking/status/{site_id} answers it; null for no site or one that does not exist. */
async function trackingOf(ctx: Pick<AppContext, "prisma" | "queues">, siteId: number | undefined) {
  if (siteId === undefined) return null;
  try {
    return await trackingStatusView(ctx, siteId);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/** Tracking, inventory and order import runs per site (GET /sync-runs), each with its outcome and its job; a site's tracking state and a sync now (POST /tracking/sync/{site_id}). */
export function syncRunPages(ctx: Pick<AppContext, "logger" | "prisma" | "queues" | "replica" | "sessions">): Router {
  const router = express.Router();
  const operators = signedIn(ctx, ["manage_middleware"]);

  router.get("/sync-runs", operators, async (req, res) => {
    const query = filters.parse(req.query);
    const filter = { site_id: query.site_id, kind: query.kind, status: query.status };
    const [{ total, rows }, sites, tracking] = await Promise.all([
      listSyncRuns(ctx, filter, pageWindow({ page: query.page, per_page: PER_PAGE })),
      listSites(ctx, undefined),
      trackingOf(ctx, query.site_id),
    ]);
    const queued = typeof req.query.queued === "string" ? req.query.queued.slice(0, 200) : null;
    renderPage(res, "sync-runs", {
      title: "Sync runs",
      runs: rows,
      total,
      sites: sites.map((site) => ({ id: site.id, name: site.name })),
      tracking,
      queued,
      kinds: KINDS,
      statuses: SYNC_RUN_STATUSES,
      filter: { site_id: query.site_id ?? "", kind: query.kind ?? "", status: query.status ?? "" },
      ...pager({ site_id: query.site_id?.toString(), kind: query.kind, status: query.status }, query.page, total),
    });
  });

  // POST /tracking/sync/{site_id}'s use case: a tracking sync of the site that runs at once (refused, with why, when the site does not sync tracking).
  router.post("/sync-runs/tracking", operators, async (req, res) => {
    const parsed = siteForm.safeParse(req.body);
    if (!parsed.success) throw errors.invalidInput("Choose a site to sync.");
    const [job] = await queueTrackingSync(ctx, parsed.data.site_id);
    ctx.logger.info("tracking sync asked in the console", { site_id: parsed.data.site_id, job_id: job?.job_id, login: viewer(res).principal.login });
    res.redirect(303, `${CONSOLE_PATH}/sync-runs?site_id=${parsed.data.site_id}&queued=${encodeURIComponent(job?.job_id ?? "")}`);
  });
  return router;
}

import express, { type Router } from "express";
import { listSites, listSyncRuns, SYNC_RUN_COUNTS, SYNC_RUN_STATUSES, type SyncKind } from "@mw/domains/sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { pageQuery, pageWindow } from "../../http/pagination.ts";
import { signedIn } from "./guard.ts";
import { pager, PER_PAGE } from "./pager.ts";
import { renderPage } from "./render.ts";

const KINDS = Object.keys(SYNC_RUN_COUNTS) as [SyncKind, ...SyncKind[]];

// GET /sync-runs' filters; one the page cannot use is dropped rather than refused.
const filters = z.object({
  site_id: z.coerce.number().int().positive().max(2_147_483_647).optional().catch(undefined),
  kind: z.enum(KINDS).optional().catch(undefined),
  status: z.enum(SYNC_RUN_STATUSES).optional().catch(undefined),
  page: pageQuery.shape.page.catch(1),
});

/** Tracking, inventory and order import runs per site (GET /sync-runs), each with its outcome and its job. */
export function syncRunPages(ctx: Pick<AppContext, "prisma" | "queues" | "replica" | "sessions">): Router {
  const router = express.Router();
  const operators = signedIn(ctx, ["manage_middleware"]);

  router.get("/sync-runs", operators, async (req, res) => {
    const query = filters.parse(req.query);
    const filter = { site_id: query.site_id, kind: query.kind, status: query.status };
    const [{ total, rows }, sites] = await Promise.all([listSyncRuns(ctx, filter, pageWindow({ page: query.page, per_page: PER_PAGE })), listSites(ctx, undefined)]);
    renderPage(res, "sync-runs", {
      title: "Sync runs",
      runs: rows,
      total,
      sites: sites.map((site) => ({ id: site.id, name: site.name })),
      kinds: KINDS,
      statuses: SYNC_RUN_STATUSES,
      filter: { site_id: query.site_id ?? "", kind: query.kind ?? "", status: query.status ?? "" },
      ...pager({ site_id: query.site_id?.toString(), kind: query.kind, status: query.status }, query.page, total),
    });
  });
  return router;
}

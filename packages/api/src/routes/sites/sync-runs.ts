import { listSyncRuns, SYNC_RUN_COUNTS, SYNC_RUN_STATUSES, type SyncKind } from "@mw/domains/sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { pageOf, pageQuery, pageSchema, pageWindow } from "../../http/pagination.ts";

const runRow = z.object({
  id: z.number().int(),
  site_id: z.number().int(),
  site_name: z.string(),
  kind: z.string().describe("tracking, inventory or orders (storefront order import)"),
  status: z.enum(SYNC_RUN_STATUSES).describe("as the run recorded it"),
  state: z.string().describe("running, completed, failed, or interrupted (its job ended without closing the run)"),
  outcome: z.string().describe("what the run did, why it failed, or that it died"),
  counts: z.unknown().nullable(),
  error: z.string().nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  job_id: z.string().nullable(),
  job_state: z.string().nullable(),
  job_url: z.string().nullable().describe("the run's job in Bull Board, while the queue holds it"),
});

const exampleRun = {
  id: 88,
  site_id: 1,
  site_name: "Main shop",
  kind: "inventory",
  status: "failed" as const,
  state: "failed",
  outcome: "storefront refused the credentials (401)",
  counts: null,
  error: "storefront refused the credentials (401)",
  started_at: "2026-11-20 10:00:00",
  finished_at: "2026-11-20 10:00:02",
  job_id: "inventory-sync.1.1795535133854",
  job_state: "failed",
  job_url: "/admin/queues/queue/inventory/inventory-sync.1.1795535133854",
};

/** Every sync run (tracking, inventory, order import) with its outcome. */
export function syncRunRoutes(api: ApiRouter, ctx: Pick<AppContext, "queues" | "replica">): void {
  api.route({
    method: "get",
    path: "/sync-runs",
    summary: "Sync runs, newest first, each with its outcome and its job",
    tag: "sites",
    access: "manage_middleware",
    query: pageQuery.extend({
      site_id: z.coerce.number().int().positive().optional(),
      kind: z.enum(Object.keys(SYNC_RUN_COUNTS) as [SyncKind, ...SyncKind[]]).optional(),
      status: z.enum(SYNC_RUN_STATUSES).optional(),
      finished_since: z.coerce.date().optional().describe("finished at or after this time (ISO 8601)"),
    }),
    example: { response: pageOf("sync_runs", [exampleRun], 1, { page: 1, per_page: 20 }) },
    responses: { 200: { description: "One page of runs", schema: pageSchema("sync_runs", runRow) } },
    handler: async ({ query }) => {
      const { total, rows } = await listSyncRuns(ctx, query, pageWindow(query));
      return pageOf("sync_runs", rows, total, query);
    },
  });
}

import { formatDateTime } from "@mw/platform";
import { readRunCounts, trackingRunCounts } from "@mw/domains/sites";
import { queueTrackingSync, queueTrackingSyncOfAll, trackingStatus } from "@mw/domains/tracking";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

const siteParams = z.object({ site_id: z.coerce.number().int().positive().max(2_147_483_647) });

/** What a manual trigger answers; `queued` also names the job to look for in Bull Board. */
export const queuedSchema = z.object({
  success: z.boolean(),
  queued: z.array(z.object({ site_id: z.number().int(), job_id: z.string() })),
});

const statusSchema = z.object({
  site_id: z.number().int(),
  enabled: z.boolean().describe("active, with tracking_sync and tracking_enabled on: synced every 30 minutes"),
  last_run: z
    .object({
      job_id: z.string().nullable(),
      status: z.string().describe("running, completed or failed"),
      started_at: z.string(),
      finished_at: z.string().nullable(),
      counts: trackingRunCounts.nullable().describe("null while the run is going"),
      error: z.string().nullable(),
    })
    .nullable(),
  next_run: z.string().nullable().describe("YYYY-MM-DD HH:MM:SS UTC, from the site's job scheduler; null when not scheduled"),
  last_error: z.object({ message: z.string(), at: z.string(), job_id: z.string().nullable() }).nullable().describe("the latest failed run"),
});

const queuedExample = { success: true, queued: [{ site_id: 1, job_id: "tracking-sync.1.manual.1795535133854" }] };

/** Manual tracking syncs and a site's tracking state (spec 1, 4.7). */
export function trackingRoutes(api: ApiRouter, ctx: Pick<AppContext, "logger" | "prisma" | "queues">): void {
  api.route({
    method: "post",
    path: "/tracking/sync/:site_id",
    summary: "Queue a tracking sync of one site that runs at once",
    tag: "tracking",
    access: "manage_middleware",
    params: siteParams,
    responses: {
      200: { description: "Queued", schema: queuedSchema },
      400: { description: "The site does not sync tracking (rest_invalid_param)" },
      404: { description: "No such site" },
      503: { description: "queue_unavailable" },
    },
    example: { response: queuedExample },
    handler: async ({ params }) => ({ success: true, queued: await queueTrackingSync(ctx, params.site_id) }),
  });

  api.route({
    method: "post",
    path: "/tracking/sync-all",
    summary: "Queue a tracking sync, run at once, of every site that syncs tracking",
    tag: "tracking",
    access: "manage_middleware",
    responses: {
      200: {
        description: "Queued, one job per site; every other site in `skipped` with why",
        schema: queuedSchema.extend({ skipped: z.array(z.object({ site_id: z.number().int(), reason: z.string() })) }),
      },
      503: { description: "queue_unavailable" },
    },
    example: {
      response: {
        success: true,
        queued: [...queuedExample.queued, { site_id: 2, job_id: "tracking-sync.2.manual.1795535133854" }],
        skipped: [{ site_id: 3, reason: "the site is inactive" }],
      },
    },
    handler: async () => ({ success: true, ...(await queueTrackingSyncOfAll(ctx)) }),
  });

  api.route({
    method: "get",
    path: "/tracking/status/:site_id",
    summary: "A site's last tracking run, its next scheduled run and its last error",
    tag: "tracking",
    access: "manage_middleware",
    params: siteParams,
    responses: { 200: { description: "Tracking state", schema: statusSchema }, 404: { description: "No such site" } },
    example: {
      response: {
        site_id: 1,
        enabled: true,
        last_run: {
          job_id: "repeat:tracking-sync.1:1795535100000",
          status: "completed",
          started_at: "2026-11-20 10:00:00",
          finished_at: "2026-11-20 10:00:05",
          counts: { orders: 12, shipments_created: 4, already_posted: 3, skipped_carrier: 1, skipped_invalid: 0, unmapped_carrier: 0, not_linked: 1, not_exported: 1, awaiting_shipment: 2, claimed_by_other_run: 0, completed: 4, errors: 0 },
          error: null,
        },
        next_run: "2026-11-20 10:30:00",
        last_error: null,
      },
    },
    handler: async ({ params }) => trackingStatusView(ctx, params.site_id),
  });
}

/** A site's tracking state as GET /tracking/status/{site_id} answers it and the console's sync runs page shows it. */
export async function trackingStatusView(ctx: Pick<AppContext, "prisma" | "queues">, siteId: number): Promise<z.infer<typeof statusSchema>> {
  const { enabled, last, lastFailed, nextRunAt } = await trackingStatus(ctx, siteId);
  return {
    site_id: siteId,
    enabled,
    last_run: last && {
      job_id: last.job_id,
      status: last.status,
      started_at: formatDateTime(last.started_at)!,
      finished_at: formatDateTime(last.finished_at),
      counts: readRunCounts("tracking", last.counts),
      error: last.error,
    },
    next_run: nextRunAt ? formatDateTime(new Date(nextRunAt)) : null,
    last_error: lastFailed && {
      message: lastFailed.error ?? "",
      at: formatDateTime(lastFailed.finished_at ?? lastFailed.started_at)!,
      job_id: lastFailed.job_id,
    },
  };
}

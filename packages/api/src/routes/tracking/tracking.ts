import { errors, formatDateTime } from "@mw/platform";
import { readRunCounts, TRACKING_SYNC_SITES, trackingRunCounts, trackingSyncEnabled } from "@mw/shared/sites";
import { manualTrackingSyncJobId, trackingSchedulerId, trackingSyncJob } from "@mw/shared/tracking";
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



/** Manual tracking syncs and a site's tracking state (spec 1, 4.7). */
export function trackingRoutes(api: ApiRouter, ctx: AppContext): void {
  const tracking = ctx.queues.get(trackingSyncJob.queue);

  /** A job that runs before the waiting scheduled ones (lifo: head of the line). */
  async function queueNow(siteIds: number[]): Promise<{ site_id: number; job_id: string }[]> {
    const at = Date.now();
    const queued = [];
    for (const siteId of siteIds) {
      const id = manualTrackingSyncJobId(siteId, at);
      await ctx.queues.add(trackingSyncJob, { site_id: siteId }, { jobId: id, lifo: true }).catch((error: unknown) => {
        throw errors.queueUnavailable("The tracking sync could not be queued", error);
      });
      queued.push({ site_id: siteId, job_id: id });
    }
    ctx.logger.info("tracking sync queued by hand", { queued });
    return queued;
  }

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
    handler: async ({ params }) => {
      const site = await ctx.prisma.site.findUnique({ where: { id: params.site_id }, select: { is_active: true, tracking_sync: true, tracking_enabled: true } });
      if (!site) throw errors.notFound("Site not found.");
      if (!trackingSyncEnabled(site)) {
        throw errors.invalidParam("site_id", "tracking sync is off for this site: it needs is_active, tracking_sync and tracking_enabled");
      }
      return { success: true, queued: await queueNow([params.site_id]) };
    },
  });

  api.route({
    method: "post",
    path: "/tracking/sync-all",
    summary: "Queue a tracking sync, run at once, of every site that syncs tracking",
    tag: "tracking",
    access: "manage_middleware",
    responses: { 200: { description: "Queued, one job per site", schema: queuedSchema }, 503: { description: "queue_unavailable" } },
    handler: async () => {
      const sites = await ctx.prisma.site.findMany({ where: TRACKING_SYNC_SITES, select: { id: true }, orderBy: { id: "asc" } });
      return { success: true, queued: await queueNow(sites.map((site) => site.id)) };
    },
  });

  api.route({
    method: "get",
    path: "/tracking/status/:site_id",
    summary: "A site's last tracking run, its next scheduled run and its last error",
    tag: "tracking",
    access: "manage_middleware",
    params: siteParams,
    responses: { 200: { description: "Tracking state", schema: statusSchema }, 404: { description: "No such site" } },
    handler: async ({ params }): Promise<z.infer<typeof statusSchema>> => {
      const siteId = params.site_id;
      const site = await ctx.prisma.site.findUnique({ where: { id: siteId }, select: { is_active: true, tracking_sync: true, tracking_enabled: true } });
      if (!site) throw errors.notFound("Site not found.");
      const latest = { orderBy: [{ started_at: "desc" as const }, { id: "desc" as const }] };
      const [last, lastFailed, scheduler] = await Promise.all([
        ctx.prisma.syncRun.findFirst({ where: { site_id: siteId, kind: "tracking" }, ...latest }),
        ctx.prisma.syncRun.findFirst({ where: { site_id: siteId, kind: "tracking", status: "failed" }, ...latest }),
        tracking.getJobScheduler(trackingSchedulerId(siteId)),
      ]);
      return {
        site_id: siteId,
        enabled: trackingSyncEnabled(site),
        last_run: last && {
          job_id: last.job_id,
          status: last.status,
          started_at: formatDateTime(last.started_at)!,
          finished_at: formatDateTime(last.finished_at),
          counts: readRunCounts("tracking", last.counts),
          error: last.error,
        },
        next_run: scheduler?.next ? formatDateTime(new Date(scheduler.next)) : null,
        last_error: lastFailed && {
          message: lastFailed.error ?? "",
          at: formatDateTime(lastFailed.finished_at ?? lastFailed.started_at)!,
          job_id: lastFailed.job_id,
        },
      };
    },
  });
}

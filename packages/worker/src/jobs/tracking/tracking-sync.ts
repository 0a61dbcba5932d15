import { recordTrackingFailures, trackingHealthPingJobId, type trackingSyncJob } from "@mw/domains/tracking";
import { healthPingJob } from "@mw/domains/notifications";
import { AppError, type PayloadOf, type Logger } from "@mw/platform";
import { startSiteSync, type Site } from "@mw/domains/sites";
import type { Job } from "bullmq";
import { endsJob } from "../../runtime/attempts.ts";
import { TrackingRun, type OrderFailure } from "./run.ts";
import type { JobContext } from "../../runtime/processor.ts";

/**
 * `tracking-sync` (spec 1, 4.7): ERP tracking numbers onto one site's
 * storefront orders. The site is read again, so a job scheduled before the
 * site was disabled or deleted ends quietly. Each run writes a `sync_runs`
 * row; the health-check URL is pinged only after a run without errors. A run
 * in which some orders failed still does the others, then fails (once, no
 * retry) naming them; a failure that concerns the whole site (storefront or
 * ERP unreachable, rate limit outlasting its bound) fails it for BullMQ to retry.
 */
export async function trackingSync(job: Job, payload: PayloadOf<typeof trackingSyncJob>, ctx: JobContext) {
  const log = ctx.log.child({ site_id: payload.site_id });
  const sync = await startSiteSync(ctx, "tracking", payload.site_id, job.id, log);
  if ("skipped" in sync) return sync;
  const { site, runId } = sync;
  const run = new TrackingRun(site, ctx, log.child({ run_id: runId }));
  try {
    await run.execute();
    if (run.failures.length) throw incomplete(site, run.failures, run.counts.orders);
    await sync.finish(run.counts, { erpAnswered: run.erpAnswered });
    if (site.health_check_url) {
      await ctx.queues.add(healthPingJob, { url: site.health_check_url, site_id: site.id }, { jobId: trackingHealthPingJobId(site.id, runId) });
    }
    log.info("tracking sync finished", run.counts);
    return { run_id: runId, counts: run.counts };
  } catch (error) {
    await sync.fail(run.counts, error);
    if (endsJob(job, error)) await recordFailures(ctx, site, run.failures, error, log);
    throw error;
  }
}

function incomplete(site: Site, failures: OrderFailure[], orders: number): AppError {
  const first = failures[0]!;
  return AppError.permanent(
    `tracking sync of site ${site.id}: ${failures.length} of ${orders} orders failed (first: order ${first.order_number}: ${first.message})`,
    "tracking_incomplete",
  );
}

/** Operators see each failed order in GET /stats, and the run's own failure when it was not just those orders. */
async function recordFailures(ctx: JobContext, site: Site, failures: OrderFailure[], error: unknown, log: Logger): Promise<void> {
  const ownFailure = !(error instanceof AppError && error.code === "tracking_incomplete");
  try {
    await recordTrackingFailures(ctx, site.id, [...failures, ...(ownFailure ? [{ order_number: null, message: (error as Error).message }] : [])]);
  } catch (error) {
    log.error("could not record the tracking sync failure", { error: (error as Error).message });
  }
}

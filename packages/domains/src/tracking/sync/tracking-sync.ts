import { AppError } from "@mw/platform/core";
import type { Logger } from "@mw/platform/logging";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { healthPingJob } from "../../notifications/index.ts";
import { startSiteSync, type Site, type SyncJob } from "../../sites/index.ts";
import { trackingHealthPingJobId } from "../jobs.ts";
import { recordTrackingFailures } from "../sync-failures.ts";
import { TrackingRun, type OrderFailure, type TrackingRunDeps } from "./run.ts";

type Deps = TrackingRunDeps & Pick<Connections, "queues"> & Pick<JobRun, "log">;

/**
 * `tracking-sync` (spec 1, 4.7): ERP tracking numbers onto one site's
 * storefront orders. The site is read again, so a job scheduled before the
 * site was disabled or deleted ends quietly. Each run writes a `sync_runs`
 * row; the health-check URL is pinged only after a run without errors. A run
 * in which some orders failed still does the others, then fails (once, no
 * retry) naming them; a failure that concerns the whole site (storefront or
 * ERP unreachable, rate limit outlasting its bound) fails it for BullMQ to retry.
 */
export async function runTrackingSync(deps: Deps, job: SyncJob, siteId: number) {
  const log = deps.log.child({ site_id: siteId });
  const sync = await startSiteSync(deps, "tracking", siteId, job.id, log);
  if ("skipped" in sync) return sync;
  const { site, runId } = sync;
  const run = new TrackingRun(site, deps, log.child({ run_id: runId }));
  try {
    await run.execute();
    if (run.failures.length) throw incomplete(site, run.failures, run.counts.orders);
    await sync.finish(run.counts, { erpAnswered: run.erpAnswered });
    if (site.health_check_url) {
      await deps.queues.add(healthPingJob, { url: site.health_check_url, site_id: site.id }, { jobId: trackingHealthPingJobId(site.id, runId) });
    }
    log.info("tracking sync finished", run.counts);
    return { run_id: runId, counts: run.counts };
  } catch (error) {
    await sync.fail(run.counts, error);
    if (job.ends(error)) await recordFailures(deps, site, run.failures, error, log);
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
async function recordFailures(deps: Pick<Connections, "prisma">, site: Site, failures: OrderFailure[], error: unknown, log: Logger): Promise<void> {
  const ownFailure = !(error instanceof AppError && error.code === "tracking_incomplete");
  try {
    await recordTrackingFailures(deps, site.id, [...failures, ...(ownFailure ? [{ order_number: null, message: (error as Error).message }] : [])]);
  } catch (error) {
    log.error("could not record the tracking sync failure", { error: (error as Error).message });
  }
}

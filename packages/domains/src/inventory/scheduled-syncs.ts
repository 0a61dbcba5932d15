import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { syncingSites } from "../sites/index.ts";
import { inventorySyncJob, scheduledInventorySyncJobId, scheduledInventorySyncKey } from "./jobs.ts";

/** One full inventory sync per site per clock hour, the `inventory-sweep` schedule's period. */
const PERIOD_MS = 3600_000;

/**
 * Queues the full `inventory-sync` of every site that syncs inventory, for
 * the period `now` falls in. The job id names the site and the period, so a
 * rerun or a second sweep in the period adds nothing; the deduplication id
 * names the site, so a scheduled full sync still waiting, retrying or running
 * absorbs the next one instead of piling up behind it. Answers, per site, the
 * job that covers it.
 */
export async function queueScheduledInventorySyncs(deps: Pick<Connections, "prisma" | "queues">, now = Date.now()) {
  const periodStart = Math.floor(now / PERIOD_MS) * PERIOD_MS;
  const sites = await syncingSites(deps, "inventory");
  const syncs: { site_id: number; job_id: string }[] = [];
  for (const site of sites) {
    const job = await deps.queues.add(
      inventorySyncJob,
      { site_id: site.id },
      { jobId: scheduledInventorySyncJobId(site.id, periodStart), deduplication: { id: scheduledInventorySyncKey(site.id) } },
    );
    syncs.push({ site_id: site.id, job_id: job.id! });
  }
  return { period_start: new Date(periodStart).toISOString(), syncs };
}

/** `inventory-sweep`: ERP stock changes reach the storefronts without anyone asking (a product webhook covers only storefront-side changes). */
export async function sweepInventory(deps: Pick<Connections, "prisma" | "queues"> & Pick<JobRun, "log">) {
  const result = await queueScheduledInventorySyncs(deps);
  deps.log.info("scheduled full inventory syncs queued", { period_start: result.period_start, sites: result.syncs.length });
  return result;
}

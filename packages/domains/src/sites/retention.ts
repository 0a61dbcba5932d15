import { deleteInBatches, Prisma, retentionCutoff } from "@mw/platform/database";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";

type Deps = Pick<Connections, "prisma" | "config"> & Pick<JobRun, "log">;

/**
 * `sites-retention`, daily: finished sync runs older than RETENTION_SYNC_RUNS_DAYS and sync errors older than
 * RETENTION_SYNC_ERRORS_DAYS go, oldest first, a batch at a time. A site's latest run of each kind and outcome
 * stays whatever its age: the site list shows the last completed run and the tracking status the last failed one.
 */
export async function purgeSiteHistory(deps: Deps) {
  const batches = { batchSize: deps.config.RETENTION_BATCH_SIZE, log: deps.log };
  const runsCutoff = retentionCutoff(deps.config.RETENTION_SYNC_RUNS_DAYS);
  // One row per site, kind and outcome: read once, a few hundred ids at most.
  const latest = await deps.prisma.$queryRaw<{ id: number }[]>`SELECT MAX(id) AS id FROM sync_runs GROUP BY site_id, kind, status`;
  const keep = Prisma.join([0, ...latest.map((row) => Number(row.id))]);
  const syncRuns = await deleteInBatches("sync_runs", batches, runsCutoff, (limit) =>
    deps.prisma.$executeRaw`DELETE FROM sync_runs WHERE started_at < ${runsCutoff} AND status <> 'running' AND id NOT IN (${keep}) ORDER BY started_at LIMIT ${limit}`,
  );
  const errorsCutoff = retentionCutoff(deps.config.RETENTION_SYNC_ERRORS_DAYS);
  const syncErrors = await deleteInBatches("sync_errors", batches, errorsCutoff, (limit) => deps.prisma.$executeRaw`DELETE FROM sync_errors WHERE created_at < ${errorsCutoff} ORDER BY created_at LIMIT ${limit}`);
  return { sync_runs: syncRuns, sync_errors: syncErrors };
}

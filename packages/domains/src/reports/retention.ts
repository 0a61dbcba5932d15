import { deleteInBatches, retentionCutoff } from "@mw/platform/database";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";

type Deps = Pick<Connections, "prisma" | "config" | "storage"> & Pick<JobRun, "log">;

/**
 * `reports-retention`, daily: report runs that ended more than RETENTION_REPORTS_DAYS ago go with their CSV files,
 * a batch at a time; a report can be asked for again (its rows come from records kept for good). The file goes
 * before its row, so a purge cut short leaves a row whose file is missing (which the download says), never a file
 * nothing names.
 */
export async function purgeReports(deps: Deps) {
  const cutoff = retentionCutoff(deps.config.RETENTION_REPORTS_DAYS);
  const batches = { batchSize: deps.config.RETENTION_BATCH_SIZE, log: deps.log };
  let files = 0;
  const reports = await deleteInBatches("reports", batches, cutoff, async (limit) => {
    const due = await deps.prisma.report.findMany({
      where: { created_at: { lt: cutoff }, status: { in: ["completed", "failed"] } },
      orderBy: { created_at: "asc" },
      take: limit,
      select: { id: true, storage_key: true },
    });
    for (const report of due) {
      if (!report.storage_key) continue;
      await deps.storage.delete(report.storage_key);
      files += 1;
    }
    if (due.length) await deps.prisma.report.deleteMany({ where: { id: { in: due.map((report) => report.id) } } });
    return due.length;
  });
  return { reports, report_files: files };
}

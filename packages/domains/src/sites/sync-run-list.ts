import { formatDateTime } from "@mw/platform/core";
import type { QueueName } from "@mw/platform/config";
import { jobFields, jobStatus } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import type { Prisma } from "@mw/platform/prisma";
import type { SyncKind } from "./sync-runs.ts";

export const SYNC_RUN_STATUSES = ["running", "completed", "failed"] as const;
type SyncRunStatus = (typeof SYNC_RUN_STATUSES)[number];

/** The queue each kind of sync runs on (its jobs.ts in tracking, inventory, orders). */
const QUEUE_OF: Record<SyncKind, QueueName> = { tracking: "tracking", inventory: "inventory", orders: "orders" };

interface SyncRunFilter {
  site_id?: number;
  kind?: SyncKind;
  status?: SyncRunStatus;
  /** Finished (failed or completed) at or after this time: the operations page's windows link here. */
  finished_since?: Date;
}

function outcomeOf(run: { status: string; error: string | null; counts: Prisma.JsonValue }, jobState: string | null): { state: string; outcome: string } {
  if (run.status === "failed") return { state: "failed", outcome: run.error ?? "failed" };
  if (run.status === "completed") {
    const counts = run.counts && typeof run.counts === "object" ? Object.entries(run.counts).map(([key, value]) => `${key} ${String(value)}`) : [];
    return { state: "completed", outcome: counts.length ? counts.join(", ") : "completed" };
  }
  // A run whose job is gone or finished without closing its row died mid-way (its process was killed).
  if (jobState === "active" || jobState === "waiting" || jobState === "delayed") return { state: "running", outcome: "running" };
  return { state: "interrupted", outcome: "the run's job ended without closing the run (its worker died); the next run starts afresh" };
}

/** Every sync run, newest first, with its outcome: what it did, or why it failed, or that it died mid-way. */
export async function listSyncRuns(deps: Pick<Connections, "replica" | "queues">, filter: SyncRunFilter, window: { skip: number; take: number }) {
  const where: Prisma.SyncRunWhereInput = {
    site_id: filter.site_id,
    kind: filter.kind,
    status: filter.status,
    ...(filter.finished_since ? { finished_at: { gte: filter.finished_since } } : {}),
  };
  const [total, runs] = await Promise.all([
    deps.replica.syncRun.count({ where }),
    deps.replica.syncRun.findMany({ where, include: { site: { select: { name: true } } }, orderBy: { id: "desc" }, ...window }),
  ]);
  const rows = await Promise.all(
    runs.map(async (run) => {
      const job = run.job_id ? await jobStatus(deps.queues, QUEUE_OF[run.kind as SyncKind] ?? "tracking", run.job_id) : null;
      return {
        id: run.id,
        site_id: run.site_id,
        site_name: run.site.name,
        kind: run.kind,
        status: run.status,
        ...outcomeOf(run, job?.state ?? null),
        counts: run.counts ?? null,
        error: run.error,
        started_at: formatDateTime(run.started_at)!,
        finished_at: formatDateTime(run.finished_at),
        ...jobFields(job),
      };
    }),
  );
  return { total, rows };
}

/** Sync runs that failed and finished at or after `since`: the total of GET /sync-runs?status=failed&finished_since=. */
export async function failedSyncRunCount(deps: Pick<Connections, "replica" | "queues">, since: Date): Promise<number> {
  return (await listSyncRuns(deps, { status: "failed", finished_since: since }, { skip: 0, take: 0 })).total;
}

import type { PrismaClient } from "../platform/index.ts";

/**
 * One `sync_runs` row per tracking or inventory run: written `running` when
 * the run starts and closed with its counts, so GET /tracking/status and the
 * site list show what the last runs did (and a run that died mid-way stays
 * visible as `running` with no `finished_at`).
 */
export type SyncKind = "tracking" | "inventory";

export async function startRun(prisma: PrismaClient, siteId: number, kind: SyncKind, jobId: string | undefined): Promise<number> {
  const run = await prisma.syncRun.create({ data: { site_id: siteId, kind, job_id: jobId ?? null, status: "running" }, select: { id: true } });
  return run.id;
}

/** `updateMany`, not `update`: a site deleted during its run takes the row with it, and that must not fail the job a second time. */
export async function finishRun(prisma: PrismaClient, runId: number, result: { counts: object; error?: string }): Promise<void> {
  await prisma.syncRun.updateMany({
    where: { id: runId },
    data: { status: result.error === undefined ? "completed" : "failed", counts: { ...result.counts }, error: result.error ?? null, finished_at: new Date() },
  });
}

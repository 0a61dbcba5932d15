import { deleteInBatches, retentionCutoff } from "@mw/platform/database";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";

type Deps = Pick<Connections, "prisma" | "config"> & Pick<JobRun, "log">;

/**
 * `urgency-retention`, daily: snapshots and analysis history older than RETENTION_SNAPSHOTS_DAYS go, oldest
 * first, a batch at a time. A ticket's latest snapshot stays whatever its age (its current urgency is read from
 * it), and so do the CRITICAL alert rows of ai_history: they are what makes an alert go out once per ticket.
 */
export async function purgeUrgencyHistory(deps: Deps) {
  const cutoff = retentionCutoff(deps.config.RETENTION_SNAPSHOTS_DAYS);
  const batches = { batchSize: deps.config.RETENTION_BATCH_SIZE, log: deps.log };
  const snapshots = await deleteInBatches("ai_snapshots", batches, cutoff, async (limit) => {
    // Chosen first, deleted by id: "not the newest of its ticket" needs the table itself, which one DELETE cannot read.
    const due = await deps.prisma.$queryRaw<{ id: number }[]>`
      SELECT s.id FROM ai_snapshots s
      WHERE s.created < ${cutoff} AND EXISTS (SELECT 1 FROM ai_snapshots n WHERE n.ticket_id = s.ticket_id AND n.id > s.id)
      ORDER BY s.created LIMIT ${limit}`;
    if (due.length === 0) return 0;
    await deps.prisma.aiSnapshot.deleteMany({ where: { id: { in: due.map((row) => Number(row.id)) } } });
    return due.length;
  });
  const history = await deleteInBatches("ai_history", batches, cutoff, (limit) =>
    deps.prisma.$executeRaw`DELETE FROM ai_history WHERE event = 'analysis' AND created < ${cutoff} ORDER BY created LIMIT ${limit}`,
  );
  return { ai_snapshots: snapshots, ai_history: history };
}

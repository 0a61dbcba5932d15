import { deleteInBatches, retentionCutoff } from "@mw/platform/database";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";

type Deps = Pick<Connections, "prisma" | "config"> & Pick<JobRun, "log">;

/**
 * `tickets-retention`, daily: the changes feed older than RETENTION_TICKET_CHANGES_DAYS (the ticket system reads
 * it by cursor within minutes; a cursor older than the oldest row just reads on from there) and the staff
 * directory's audit rows older than RETENTION_AUDIT_DAYS go, a batch at a time. The ticket mirror itself (tickets,
 * thread entries, organisations, staff) is the ticket system's record and stays.
 */
export async function purgeTicketHistory(deps: Deps) {
  const batches = { batchSize: deps.config.RETENTION_BATCH_SIZE, log: deps.log };
  const changesCutoff = retentionCutoff(deps.config.RETENTION_TICKET_CHANGES_DAYS);
  const changes = await deleteInBatches("ticket_changes", batches, changesCutoff, (limit) =>
    deps.prisma.$executeRaw`DELETE FROM ticket_changes WHERE created < ${changesCutoff} ORDER BY created LIMIT ${limit}`,
  );
  const auditCutoff = retentionCutoff(deps.config.RETENTION_AUDIT_DAYS);
  const audit = await deleteInBatches("staff_recipient_changes", batches, auditCutoff, (limit) =>
    deps.prisma.$executeRaw`DELETE FROM staff_recipient_changes WHERE changed_at < ${auditCutoff} ORDER BY changed_at LIMIT ${limit}`,
  );
  return { ticket_changes: changes, staff_recipient_changes: audit };
}

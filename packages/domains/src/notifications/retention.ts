import { deleteInBatches, retentionCutoff } from "@mw/platform/database";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";

type Deps = Pick<Connections, "prisma" | "config"> & Pick<JobRun, "log">;

/**
 * `notifications-retention`, daily: staff notifications older than RETENTION_NOTIFICATIONS_DAYS (read or not:
 * the browser showed them when they came) and operator alerts delivered or dismissed more than
 * RETENTION_OPERATOR_ALERTS_DAYS ago go, a batch at a time. Pending and undelivered alerts stay until an operator
 * or a channel ends them.
 */
export async function purgeNotifications(deps: Deps) {
  const batches = { batchSize: deps.config.RETENTION_BATCH_SIZE, log: deps.log };
  const staffCutoff = retentionCutoff(deps.config.RETENTION_NOTIFICATIONS_DAYS);
  const staff = await deleteInBatches("staff_notifications", batches, staffCutoff, (limit) =>
    deps.prisma.$executeRaw`DELETE FROM staff_notifications WHERE created < ${staffCutoff} ORDER BY created LIMIT ${limit}`,
  );
  const alertsCutoff = retentionCutoff(deps.config.RETENTION_OPERATOR_ALERTS_DAYS);
  const alerts = await deleteInBatches("operator_alerts", batches, alertsCutoff, (limit) =>
    deps.prisma.$executeRaw`DELETE FROM operator_alerts WHERE status IN ('delivered', 'dismissed') AND updated < ${alertsCutoff} ORDER BY id LIMIT ${limit}`,
  );
  return { staff_notifications: staff, operator_alerts: alerts };
}

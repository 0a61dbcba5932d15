import { deleteInBatches, retentionCutoff } from "@mw/platform/database";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";

/**
 * `webhooks-retention`, daily: processed deliveries older than RETENTION_WEBHOOK_EVENTS_DAYS go, oldest first, a
 * batch at a time. Unprocessed ones stay whatever their age (the inbox sweep still owes them their job). What a
 * delivery led to is kept elsewhere for good (a dispute's linkage and chargeback, the stock pushed).
 */
export async function purgeWebhookEvents(deps: Pick<Connections, "prisma" | "config"> & Pick<JobRun, "log">) {
  const cutoff = retentionCutoff(deps.config.RETENTION_WEBHOOK_EVENTS_DAYS);
  const batches = { batchSize: deps.config.RETENTION_BATCH_SIZE, log: deps.log };
  // processed_at leads an index: each batch is a range read of the oldest, never a scan. NULL (unprocessed) never matches.
  const webhookEvents = await deleteInBatches("webhook_events", batches, cutoff, (limit) => deps.prisma.$executeRaw`DELETE FROM webhook_events WHERE processed_at < ${cutoff} ORDER BY processed_at LIMIT ${limit}`);
  return { webhook_events: webhookEvents };
}

import type { JobDefinition, Queues } from "@mw/platform/queues";
import { sslCheckAllJob } from "../managed-sites/index.ts";
import { documentsRefreshJob, embeddingsJob, knowledgeRetentionJob } from "../knowledge/index.ts";
import { inventorySkuCleanupJob, inventorySweepJob, itemHistoryCleanupJob } from "../inventory/index.ts";
import { orderSweepJob, orderVolumeDailyJob } from "../orders/index.ts";
import { reportsDailyJob, reportsRetentionJob } from "../reports/index.ts";
import { sitesRetentionJob } from "../sites/index.ts";
import { ticketsRetentionJob } from "../tickets/index.ts";
import { urgencyRetentionJob, urgencySweepJob } from "../urgency/index.ts";
import { notificationsRetentionJob } from "../notifications/index.ts";
import { milestoneChecksJob, timeImportJob, timeSyncJob } from "../timetracking/index.ts";
import { inboxSweepJob, webhooksRetentionJob } from "../webhooks/index.ts";
/**
 * The periodic jobs every deployment must have a BullMQ job scheduler for.
 * Workers upsert them; the API reads this list to say on /readyz and
 * /metrics when one is missing (Redis lost its data and no worker has
 * re-created it yet). A test keeps it equal to the worker's catalog.
 */
export const SCHEDULED_JOBS: readonly JobDefinition[] = [
  orderSweepJob,
  inboxSweepJob,
  inventorySweepJob,
  inventorySkuCleanupJob,
  itemHistoryCleanupJob,
  reportsDailyJob,
  urgencySweepJob,
  timeImportJob,
  orderVolumeDailyJob,
  sslCheckAllJob,
  embeddingsJob,
  timeSyncJob,
  milestoneChecksJob,
  documentsRefreshJob,
  // Retention (docs/operations.md): one purge per domain that owns records kept for a set time.
  webhooksRetentionJob,
  sitesRetentionJob,
  urgencyRetentionJob,
  notificationsRetentionJob,
  ticketsRetentionJob,
  knowledgeRetentionJob,
  reportsRetentionJob,
];
/** The scheduled jobs whose job scheduler is not in Redis. */
export async function missingSchedules(queues: Queues): Promise<JobDefinition[]> {
  const present = await Promise.all(SCHEDULED_JOBS.map((job) => queues.get(job.queue).getJobScheduler(job.name)));
  return SCHEDULED_JOBS.filter((_, i) => !present[i]);
}
export { SITE_SCHEDULES } from "./site-schedules.ts";

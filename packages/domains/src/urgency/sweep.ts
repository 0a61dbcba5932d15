import { queueOverdueAlerts } from "./alerts.ts";
import { applyUrgencyLimit, owedAnalyses, queueAnalysisJob, type QueueDeps } from "./queue.ts";

/**
 * The urgency queue's safety net, every minute: applies the limiter, gives
 * every row that owes an analysis (not processed, under five failures) its
 * job when it has none, and queues CRITICAL alerts still owed.
 */
export async function sweepUrgencyQueue(deps: QueueDeps) {
  const limit = await applyUrgencyLimit(deps);
  const owed = await owedAnalyses(deps);
  let requeued = 0;
  for (const row of owed) if (await queueAnalysisJob(deps, row.ticket_id, row.analysed_at)) requeued += 1;
  const alertJobs = await queueOverdueAlerts(deps);
  return { limit_per_minute: limit, owed: owed.length, requeued, alert_jobs: alertJobs };
}

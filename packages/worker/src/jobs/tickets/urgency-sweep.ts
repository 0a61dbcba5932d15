import type { PayloadOf } from "@mw/shared";
import { applyUrgencyLimit, MAX_URGENCY_FAILURES, queueAnalysisJob, type urgencySweepJob } from "@mw/shared/tickets";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";
import { queueOwedAlerts } from "./alert-queue.ts";
import { processServices } from "../../runtime/services.ts";

/** Alerts younger than this are still being queued by their run. */
const ALERT_GRACE_MS = 60_000;

/**
 * The urgency queue's safety net, every minute: applies the limiter, gives
 * every row that owes an analysis (not processed, under five failures) its
 * job when it has none, and queues CRITICAL alerts still owed.
 */
export async function urgencySweep(_job: Job, _payload: PayloadOf<typeof urgencySweepJob>, ctx: JobContext) {
  const { options } = processServices(ctx);
  const deps = { prisma: ctx.prisma, queues: ctx.queues, options };
  const limit = await applyUrgencyLimit(deps);
  const owed = await ctx.prisma.urgencyQueueEntry.findMany({ where: { processed: false, failures: { lt: MAX_URGENCY_FAILURES } }, select: { ticket_id: true, analysed_at: true } });
  let requeued = 0;
  for (const row of owed) if (await queueAnalysisJob(deps, row.ticket_id, row.analysed_at)) requeued += 1;
  const alerts = await ctx.prisma.aiHistory.findMany({
    where: { event: "critical_alert", sent_at: null, created: { lt: new Date(Date.now() - ALERT_GRACE_MS) } },
    distinct: ["ticket_id"],
    select: { ticket_id: true },
  });
  let alertJobs = 0;
  for (const { ticket_id } of alerts) alertJobs += await queueOwedAlerts(ctx, ticket_id);
  if (requeued) ctx.log.warn("urgency rows without a job re-queued", { requeued });
  return { limit_per_minute: limit, owed: owed.length, requeued, alert_jobs: alertJobs };
}

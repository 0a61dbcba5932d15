import type { PrismaClient } from "@mw/platform/database";
import { retryUnlessFailedForGood, type Queues } from "@mw/platform/queues";
import { criticalAlertJob, criticalAlertJobId, type AlertChannel } from "./jobs.ts";

/** Alerts younger than this are still being queued by their run. */
const ALERT_GRACE_MS = 60_000;

/**
 * Adds a job for each CRITICAL alert channel the ticket's history still owes
 * (design 10.8: `critical-alert.<ticket_id>.<channel>`); adding one that
 * exists changes nothing, so any run, sweep or retry may call this.
 */
export async function queueOwedAlerts(deps: { prisma: PrismaClient; queues: Queues }, ticketId: number): Promise<number> {
  const owed = await deps.prisma.aiHistory.findMany({ where: { ticket_id: ticketId, event: "critical_alert", sent_at: null }, select: { channel: true } });
  for (const { channel } of owed) {
    const jobId = criticalAlertJobId(ticketId, channel as AlertChannel);
    // A failed job kept under the same id would make the add a no-op: it goes back to the queue instead.
    if ((await retryUnlessFailedForGood(deps.queues.get(criticalAlertJob.queue), jobId)) === "missing") await deps.queues.add(criticalAlertJob, { ticket_id: ticketId, channel: channel as AlertChannel }, { jobId });
  }
  return owed.length;
}

/** Queues the alerts still owed past the grace a run has to queue its own; answers how many jobs that was. */
export async function queueOverdueAlerts(deps: { prisma: PrismaClient; queues: Queues }): Promise<number> {
  const alerts = await deps.prisma.aiHistory.findMany({
    where: { event: "critical_alert", sent_at: null, created: { lt: new Date(Date.now() - ALERT_GRACE_MS) } },
    distinct: ["ticket_id"],
    select: { ticket_id: true },
  });
  let jobs = 0;
  for (const { ticket_id } of alerts) jobs += await queueOwedAlerts(deps, ticket_id);
  return jobs;
}

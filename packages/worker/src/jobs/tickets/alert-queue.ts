import type { Connections } from "@mw/platform";
import { criticalAlertJob, criticalAlertJobId, type AlertChannel } from "@mw/shared/tickets";

/**
 * Adds a job for each CRITICAL alert channel the ticket's history still owes
 * (design 10.8: `critical-alert.<ticket_id>.<channel>`); adding one that
 * exists changes nothing, so any run, sweep or retry may call this.
 */
export async function queueOwedAlerts(ctx: Pick<Connections, "prisma" | "queues">, ticketId: number): Promise<number> {
  const owed = await ctx.prisma.aiHistory.findMany({ where: { ticket_id: ticketId, event: "critical_alert", sent_at: null }, select: { channel: true } });
  for (const { channel } of owed) {
    await ctx.queues.add(criticalAlertJob, { ticket_id: ticketId, channel: channel as AlertChannel }, { jobId: criticalAlertJobId(ticketId, channel as AlertChannel) });
  }
  return owed.length;
}

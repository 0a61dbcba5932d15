import type { QueueName, Queues } from "@mw/shared";

/** How often a periodic job runs: every so many ms, or on a cron pattern (UTC). */
type Schedule = { queue: QueueName; name: string } & ({ everyMs: number } | { pattern: string });

/** Periodic jobs: BullMQ job schedulers, one per entry, registered by every worker that serves the queue. */
export const SCHEDULES: Schedule[] = [
  // Exports the intake could not queue, and exports that ran out of attempts in an ERP outage.
  { queue: "orders", name: "order-sweep", everyMs: 5 * 60_000 },
  // Webhooks stored without their job (a crash or a Redis failure between the two writes): disputes and product refreshes.
  { queue: "disputes", name: "webhook-sweep", everyMs: 60_000 },
  // Yesterday's reports, once the day is complete.
  { queue: "reports", name: "reports-daily", pattern: "30 0 * * *" },
  // Nightly, at quiet hours: item history past its 3 days, then catalogue SKUs the ERP dropped.
  { queue: "inventory", name: "item-history-cleanup", pattern: "30 3 * * *" },
  { queue: "inventory", name: "inventory-sku-cleanup", pattern: "0 4 * * *" },
  // A full stock sync of every site that syncs inventory, at the top of each hour (the period its job ids name).
  { queue: "inventory", name: "inventory-sweep", pattern: "0 * * * *" },
];

/**
 * Upserting a scheduler is idempotent, so every worker start may do it: two
 * workers still give one scheduler and one pending job per entry.
 */
export async function ensureSchedules(queues: Queues, served: QueueName[]): Promise<void> {
  for (const schedule of SCHEDULES.filter((entry) => served.includes(entry.queue))) {
    const repeat = "pattern" in schedule ? { pattern: schedule.pattern, tz: "UTC" } : { every: schedule.everyMs };
    await queues.get(schedule.queue).upsertJobScheduler(schedule.name, repeat, { name: schedule.name, data: {} });
  }
}

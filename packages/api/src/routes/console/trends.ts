import { QUEUE_NAMES, queueWaitsByHour } from "@mw/platform";
import { disputeTrends, failedDisputeCount } from "@mw/domains/disputes";
import { failedOrderCount, orderTrends, retryingOrderJobs } from "@mw/domains/orders";
import { failedSyncRunCount } from "@mw/domains/sites";
import type { AppContext } from "../../context.ts";
import { hourlyBarChart, lastHours, windowStart } from "./charts.ts";
import { CONSOLE_PATH } from "./render.ts";

const DAY_HOURS = 24;
const WEEK_HOURS = 7 * 24;

/**
 * The operations page's trends: hourly charts of the last 24 hours, a queue
 * wait chart per queue, and the failures by source over 24 hours and 7 days,
 * each linked to the REST list behind it (the counts use those lists' own
 * filters, so they agree).
 */
export async function operationsTrends(ctx: Pick<AppContext, "config" | "queues" | "replica">, nonce: string, now = new Date()) {
  const hours = lastHours(now, DAY_HOURS);
  const day = windowStart(now, DAY_HOURS);
  const week = windowStart(now, WEEK_HOURS);
  const root = ctx.config.API_ROOT;
  const list = (path: string, query: Record<string, string>) => `${root}${path}?${new URLSearchParams({ ...query, _wpnonce: nonce }).toString()}`;
  const counts = async () => {
    // One group of at most four queries after another: the page must not take the whole database pool (DB_POOL_SIZE, 5) at once.
    const orders = await orderTrends(ctx, day);
    // Failed attempts still being retried: the orders list holds them as pending until the queue gives up.
    const [disputes, retrying] = await Promise.all([disputeTrends(ctx, day), retryingOrderJobs(ctx, week)]);
    const failures = [];
    for (const since of [day, week]) {
      const iso = since.toISOString();
      const [failedOrders, failedDisputes, failedRuns] = await Promise.all([failedOrderCount(ctx, since), failedDisputeCount(ctx, since), failedSyncRunCount(ctx, since)]);
      failures.push([
        { source: "Order exports and read-backs", count: failedOrders, href: list("/orders", { state: "failed", failed_since: iso }) },
        {
          source: "Order exports and read-backs retrying after a failed attempt",
          count: retrying.filter((job) => job.last_attempt_at >= since).length,
          href: `${CONSOLE_PATH}/orders?state=pending`,
        },
        { source: "Disputes", count: failedDisputes, href: list("/disputes", { state: "failed", processed_since: iso }) },
        { source: "Sync runs", count: failedRuns, href: list("/sync-runs", { status: "failed", finished_since: iso }) },
      ]);
    }
    return { orders, disputes, retrying, failures };
  };
  // Queue wait per queue (recorded by workers as jobs start): Redis, not the pool, so read beside the queries.
  const [{ orders, disputes, retrying, failures }, waitsByQueue] = await Promise.all([counts(), Promise.all(QUEUE_NAMES.map((queue) => queueWaitsByHour(ctx.queues, queue, hours)))]);
  const since = day.toISOString();
  const chart = (id: string, title: string, unit: string, values: Map<string, number>, colour: string, href: string, kind: "count" | "average" = "count", marks?: Map<string, number>) => ({
    id,
    title,
    href,
    svg: hourlyBarChart({ id, title, unit, hours, values, colour, kind, marks }),
  });
  // A queue that started no job in the window gets no chart, only its name.
  const queueWaits = [];
  const idleQueues = [];
  for (const [i, queue] of QUEUE_NAMES.entries()) {
    const waits = waitsByQueue[i]!;
    if (!waits.size) {
      idleQueues.push(queue);
      continue;
    }
    const seconds = (pick: (wait: { average_ms: number; max_ms: number }) => number) => new Map([...waits].map(([hour, wait]) => [hour, pick(wait) / 1000]));
    queueWaits.push(
      chart(`chart-queue-wait-${queue}`, `Queue ${queue}: wait for a worker, average per hour (mark: longest)`, "seconds", seconds((w) => w.average_ms), "#b7791f", list("/queue", { queue, status: "completed" }), "average", seconds((w) => w.max_ms)),
    );
  }
  return {
    since,
    charts: [
      chart("chart-orders-received", "Orders received per hour", "orders", orders.received, "#2b6cb0", list("/orders", {})),
      chart("chart-orders-exported", "Orders exported per hour", "orders", orders.exported, "#2f855a", list("/orders", { state: "exported" })),
      chart("chart-orders-failed", "Order failures per hour (failed now)", "orders", orders.failed, "#c53030", list("/orders", { state: "failed", failed_since: since })),
      chart("chart-disputes-received", "Disputes received per hour", "disputes", disputes.received, "#2b6cb0", list("/disputes", { from: since.slice(0, 10) })),
      chart("chart-disputes-matched", "Disputes matched per hour", "disputes", disputes.matched, "#2f855a", list("/disputes", { state: "matched", processed_since: since })),
      chart("chart-disputes-failed", "Disputes failed per hour", "disputes", disputes.failed, "#c53030", list("/disputes", { state: "failed", processed_since: since })),
      chart("chart-dispute-latency", "Webhook to processed dispute, average per hour", "seconds", disputes.processingSeconds, "#6b46c1", list("/disputes", { processed_since: since }), "average"),
      chart("chart-export-latency", "Order received to exported (queue wait and export), average per hour", "minutes", orders.exportMinutes, "#6b46c1", list("/orders", { state: "exported" }), "average"),
    ],
    queueWaits,
    idleQueues,
    failures: { day: failures[0]!, week: failures[1]! },
    retrying,
  };
}

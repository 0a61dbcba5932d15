import type { Connections } from "@mw/platform/connections";
import { orderExportJob, orderVerifyJob } from "./jobs.ts";
import { listOrders } from "./order-reads.ts";

/** Hour buckets are `YYYY-MM-DD HH` in UTC (the stored times are UTC). */
type HourCounts = Map<string, number>;

interface HourRow {
  /** Whole hours since HOURS_FROM. */
  h: unknown;
  n: unknown;
}

const HOURS_FROM = Date.UTC(2000, 0, 1);

const byHour = (rows: HourRow[]): HourCounts =>
  new Map(rows.map((row) => [new Date(HOURS_FROM + Number(row.h) * 3_600_000).toISOString().slice(0, 13).replace("T", " "), Number(row.n)]));

/**
 * Orders per hour since `since`: received (created_at), exported
 * (imported_at), failed (failed_at of orders failed now: the list's
 * `state=failed`), and the average minutes from arrival to export.
 */
export async function orderTrends(deps: Pick<Connections, "replica">, since: Date) {
  const db = deps.replica;
  // `imported IN (0, 1)` (every value it takes) lets the (imported, created_at) and (imported, imported_at, created_at)
  // indexes give the window as two ranges; a time alone would read the whole index. Exports and their latency are
  // one walk of the latter, which holds both times, so no order row is read. Rows are grouped by a whole number of
  // hours, not a formatted string: half the time of DATE_FORMAT's grouping over a day of 15,000 orders.
  const [received, exported, failed] = await Promise.all([
    db.$queryRaw<HourRow[]>`SELECT TIMESTAMPDIFF(HOUR, '2000-01-01', created_at) AS h, COUNT(*) AS n FROM orders WHERE imported IN (0, 1) AND created_at >= ${since} GROUP BY h`,
    db.$queryRaw<(HourRow & { minutes: unknown })[]>`SELECT TIMESTAMPDIFF(HOUR, '2000-01-01', imported_at) AS h, COUNT(*) AS n, AVG(TIMESTAMPDIFF(SECOND, created_at, imported_at)) / 60 AS minutes
      FROM orders WHERE imported IN (0, 1) AND imported_at >= ${since} GROUP BY h`,
    db.$queryRaw<HourRow[]>`SELECT TIMESTAMPDIFF(HOUR, '2000-01-01', failed_at) AS h, COUNT(*) AS n FROM orders WHERE failed_at >= ${since} AND verified = 0 GROUP BY h`,
  ]);
  return { received: byHour(received), exported: byHour(exported), failed: byHour(failed), exportMinutes: byHour(exported.map((row) => ({ h: row.h, n: row.minutes }))) };
}

/** Orders failed now whose failure came at or after `since`: the total of GET /orders?state=failed&failed_since=. */
export async function failedOrderCount(deps: Pick<Connections, "replica">, since: Date): Promise<number> {
  return (await listOrders(deps, { state: "failed", failed_since: since }, { skip: 0, take: 0 })).total;
}

/** An order's export or read-back whose last attempt failed and that waits for its retry. */
export interface RetryingOrderJob {
  order_id: number;
  order_number: string | null;
  step: "export" | "read-back";
  attempts: number;
  last_error: string;
  last_attempt_at: Date;
}

/** More than this many retrying at once is an outage the page shows the first of. */
const RETRYING_READ = 500;

/**
 * Order exports and read-backs that failed an attempt at or after `since`
 * and wait in the queue for their retry. The table records a failure only
 * when the queue gives up (failed_at), so without these an order that had
 * failed four times and was retrying counted as no failure at all.
 */
export async function retryingOrderJobs(deps: Pick<Connections, "queues" | "replica">, since: Date): Promise<RetryingOrderJob[]> {
  const delayed = await deps.queues.get(orderExportJob.queue).getDelayed(0, RETRYING_READ - 1);
  const retrying = delayed.filter(
    (job) => (job.name === orderExportJob.name || job.name === orderVerifyJob.name) && job.attemptsMade > 0 && Boolean(job.failedReason) && (job.processedOn ?? job.timestamp) >= since.getTime(),
  );
  const ids = retrying.map((job) => Number((job.data as { order_id: unknown }).order_id)).filter(Number.isInteger);
  const numbers = new Map((await deps.replica.order.findMany({ where: { id: { in: ids } }, select: { id: true, number: true } })).map((order) => [order.id, order.number]));
  return retrying
    .map((job) => {
      const orderId = Number((job.data as { order_id: unknown }).order_id);
      return {
        order_id: orderId,
        order_number: numbers.get(orderId) ?? null,
        step: job.name === orderExportJob.name ? ("export" as const) : ("read-back" as const),
        attempts: job.attemptsMade,
        last_error: job.failedReason,
        last_attempt_at: new Date(job.processedOn ?? job.timestamp),
      };
    })
    .sort((a, b) => b.last_attempt_at.getTime() - a.last_attempt_at.getTime());
}

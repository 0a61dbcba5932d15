import type { Connections } from "@mw/platform";
import { listOrders } from "./order-reads.ts";

/** Hour buckets are `YYYY-MM-DD HH` in UTC, as MariaDB formats the stored UTC times. */
type HourCounts = Map<string, number>;

interface HourRow {
  hour: string;
  n: unknown;
}

const byHour = (rows: HourRow[]): HourCounts => new Map(rows.map((row) => [row.hour, Number(row.n)]));

/**
 * Orders per hour since `since`: received (created_at), exported
 * (imported_at), failed (failed_at of orders failed now: the list's
 * `state=failed`), and the average minutes from arrival to export.
 */
export async function orderTrends(deps: Pick<Connections, "replica">, since: Date) {
  const db = deps.replica;
  const [received, exported, failed, latency] = await Promise.all([
    db.$queryRaw<HourRow[]>`SELECT DATE_FORMAT(created_at, '%Y-%m-%d %H') AS hour, COUNT(*) AS n FROM orders WHERE created_at >= ${since} GROUP BY hour`,
    db.$queryRaw<HourRow[]>`SELECT DATE_FORMAT(imported_at, '%Y-%m-%d %H') AS hour, COUNT(*) AS n FROM orders WHERE imported_at >= ${since} GROUP BY hour`,
    db.$queryRaw<HourRow[]>`SELECT DATE_FORMAT(failed_at, '%Y-%m-%d %H') AS hour, COUNT(*) AS n FROM orders WHERE failed_at >= ${since} AND verified = 0 GROUP BY hour`,
    db.$queryRaw<HourRow[]>`SELECT DATE_FORMAT(imported_at, '%Y-%m-%d %H') AS hour, AVG(TIMESTAMPDIFF(SECOND, created_at, imported_at)) / 60 AS n
      FROM orders WHERE imported_at >= ${since} GROUP BY hour`,
  ]);
  return { received: byHour(received), exported: byHour(exported), failed: byHour(failed), exportMinutes: byHour(latency) };
}

/** Orders failed now whose failure came at or after `since`: the total of GET /orders?state=failed&failed_since=. */
export async function failedOrderCount(deps: Pick<Connections, "replica">, since: Date): Promise<number> {
  return (await listOrders(deps, { state: "failed", failed_since: since }, { skip: 0, take: 0 })).total;
}

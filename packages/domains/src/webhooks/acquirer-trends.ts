import type { Connections } from "@mw/platform/connections";

interface HourRow {
  hour: string;
  n: unknown;
}

interface OutcomeHourRow {
  hour: string;
  outcome: string;
  n: unknown;
}

/**
 * Acquirer deliveries per UTC hour (`YYYY-MM-DD HH`) since `since`: received,
 * finished by outcome (by the hour processing ended), and the average seconds
 * from receipt to the end of processing.
 */
export async function acquirerTrends(deps: Pick<Connections, "replica">, since: Date) {
  const db = deps.replica;
  const [received, finished, latency] = await Promise.all([
    db.$queryRaw<HourRow[]>`SELECT DATE_FORMAT(received_at, '%Y-%m-%d %H') AS hour, COUNT(*) AS n FROM webhook_events
      WHERE source = 'acquirer' AND received_at >= ${since} GROUP BY hour`,
    db.$queryRaw<OutcomeHourRow[]>`SELECT DATE_FORMAT(processed_at, '%Y-%m-%d %H') AS hour, outcome, COUNT(*) AS n FROM webhook_events
      WHERE source = 'acquirer' AND processed_at >= ${since} AND outcome IS NOT NULL GROUP BY hour, outcome`,
    db.$queryRaw<HourRow[]>`SELECT DATE_FORMAT(processed_at, '%Y-%m-%d %H') AS hour, AVG(TIMESTAMPDIFF(MICROSECOND, received_at, processed_at)) / 1000000 AS n
      FROM webhook_events WHERE source = 'acquirer' AND processed_at >= ${since} GROUP BY hour`,
  ]);
  return {
    received: new Map(received.map((row) => [row.hour, Number(row.n)])),
    finished: finished.map((row) => ({ hour: row.hour, outcome: row.outcome, count: Number(row.n) })),
    processingSeconds: new Map(latency.map((row) => [row.hour, Number(row.n)])),
  };
}

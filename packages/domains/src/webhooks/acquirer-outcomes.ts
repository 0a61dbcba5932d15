import type { Connections } from "@mw/platform/connections";

/**
 * Acquirer deliveries received in `[start, end)` by how their processing
 * ended, `pending` for those not finished yet (the dispute-outcomes report).
 */
export async function acquirerOutcomeCounts(deps: Pick<Connections, "prisma">, bounds: { start: Date; end: Date }): Promise<Map<string, number>> {
  const { start, end } = bounds;
  const counted = await deps.prisma.$queryRaw<{ outcome: string; disputes: unknown }[]>`
    SELECT COALESCE(outcome, 'pending') AS outcome, COUNT(*) AS disputes
    FROM webhook_events
    WHERE source = 'acquirer' AND received_at >= ${start} AND received_at < ${end}
    GROUP BY COALESCE(outcome, 'pending')`;
  // COUNT arrives as a BigInt.
  return new Map(counted.map((row) => [row.outcome, Number(row.disputes)]));
}

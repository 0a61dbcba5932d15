import { Prisma } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";
import { SYSTEM_SKUS } from "./submission.ts";

const DAY_MS = 86_400_000;
/** Days one query of a long period covers: a week of a busy shop is some 8,400 rows, and a query per day of a quiet one would cost more in round trips than in reading. */
const DAYS_PER_BATCH = 7;

interface DailyIntake {
  /** YYYY-MM-DD, UTC. */
  day: string;
  site_id: number;
  site_name: string;
  payment_method: string;
  orders: number;
  exported: number;
  pending: number;
  /** Catalogue lines' quantity × unit price − discount, two decimals. */
  merchandise_total: string;
}

/** COUNT and SUM arrive as BigInt or Decimal depending on the driver's reading of the type. */
function int(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

function money(value: unknown): string {
  return value === null || value === undefined ? "0.00" : new Prisma.Decimal(String(value)).toFixed(2);
}

/**
 * Orders that arrived (`created_at`) in `[start, end)` per UTC day, site and
 * payment method: how many, how many reached the ERP, and the merchandise
 * value (system lines excluded). One query and one batch per DAYS_PER_BATCH
 * days from `start` (a UTC midnight), in day order: a year of a busy shop is
 * hundreds of thousands of rows, which a report writes as they come rather
 * than holding them all.
 */
export async function* dailyIntakeBatches(deps: Pick<Connections, "prisma">, bounds: { start: Date; end: Date }): AsyncGenerator<DailyIntake[]> {
  const step = DAYS_PER_BATCH * DAY_MS;
  for (let from = bounds.start.getTime(); from < bounds.end.getTime(); from += step) {
    yield await intakeOf(deps, { start: new Date(from), end: new Date(Math.min(from + step, bounds.end.getTime())) });
  }
}

async function intakeOf(deps: Pick<Connections, "prisma">, bounds: { start: Date; end: Date }): Promise<DailyIntake[]> {
  const { start, end } = bounds;
  const system = Prisma.join(SYSTEM_SKUS.map((sku) => Prisma.sql`${sku}`));
  // `imported IN (0, 1)` lets the (imported, created_at) index serve the date range.
  const rows = await deps.prisma.$queryRaw<Record<string, unknown>[]>`
    SELECT DATE_FORMAT(o.created_at, '%Y-%m-%d') AS day, o.site_id, s.name AS site_name, o.payment_method,
           COUNT(*) AS orders, SUM(o.imported = 1) AS exported, SUM(o.imported = 0) AS pending,
           SUM(COALESCE(m.amount, 0)) AS merchandise_total
    FROM orders o
    JOIN sites s ON s.id = o.site_id
    LEFT JOIN (
      SELECT l.order_id, SUM(l.quantity * l.price - l.discount_amount) AS amount
      FROM order_lines l JOIN orders lo ON lo.id = l.order_id
      WHERE lo.imported IN (0, 1) AND lo.created_at >= ${start} AND lo.created_at < ${end} AND l.sku NOT IN (${system})
      GROUP BY l.order_id
    ) m ON m.order_id = o.id
    WHERE o.imported IN (0, 1) AND o.created_at >= ${start} AND o.created_at < ${end}
    GROUP BY day, o.site_id, s.name, o.payment_method
    ORDER BY day, s.name, o.site_id, o.payment_method`;
  return rows.map((row) => ({
    day: String(row.day),
    site_id: int(row.site_id),
    site_name: String(row.site_name),
    payment_method: String(row.payment_method),
    orders: int(row.orders),
    exported: int(row.exported),
    pending: int(row.pending),
    merchandise_total: money(row.merchandise_total),
  }));
}

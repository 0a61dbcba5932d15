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

/** A row of intakeOf as the database's JSON array: day, site id and name, payment method, orders, exported, pending, merchandise total. */
type IntakeCells = [string, number, string, string, number, number, number, string];

function money(value: string): string {
  return new Prisma.Decimal(value).toFixed(2);
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
  // Each row comes as one JSON array, not eight columns: Prisma builds about a kilobyte of objects per raw
  // column value, so a week of rows in columns (tens of MB) outlived the young generation and piled up in the
  // old one until a full collection (+171 MB at a year of a million orders). The total stays a string ("26.50").
  // `imported IN (0, 1)` lets the (imported, created_at) index serve the date range, and STRAIGHT_JOIN keeps the
  // orders first: at ten million orders the optimizer started from the 200 sites and read each site's orders whole
  // (94 s for a week, past the 15 s query bound; 3 s in this order).
  const rows = await deps.prisma.$queryRaw<{ intake: IntakeCells }[]>`
    SELECT STRAIGHT_JOIN JSON_ARRAY(DATE_FORMAT(o.created_at, '%Y-%m-%d'), o.site_id, s.name, o.payment_method, COUNT(*),
           CAST(SUM(o.imported = 1) AS SIGNED), CAST(SUM(o.imported = 0) AS SIGNED), CAST(SUM(COALESCE(m.amount, 0)) AS CHAR)) AS intake
    FROM orders o
    JOIN sites s ON s.id = o.site_id
    LEFT JOIN (
      SELECT l.order_id, SUM(l.quantity * l.price - l.discount_amount) AS amount
      FROM order_lines l JOIN orders lo ON lo.id = l.order_id
      WHERE lo.imported IN (0, 1) AND lo.created_at >= ${start} AND lo.created_at < ${end} AND l.sku NOT IN (${system})
      GROUP BY l.order_id
    ) m ON m.order_id = o.id
    WHERE o.imported IN (0, 1) AND o.created_at >= ${start} AND o.created_at < ${end}
    GROUP BY DATE_FORMAT(o.created_at, '%Y-%m-%d'), o.site_id, s.name, o.payment_method
    ORDER BY DATE_FORMAT(o.created_at, '%Y-%m-%d'), s.name, o.site_id, o.payment_method`;
  return rows.map(({ intake: [day, siteId, siteName, paymentMethod, orders, exported, pending, total] }) => ({
    day,
    site_id: siteId,
    site_name: siteName,
    payment_method: paymentMethod,
    orders,
    exported,
    pending,
    merchandise_total: money(total),
  }));
}

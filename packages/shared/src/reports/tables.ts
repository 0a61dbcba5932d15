import { dashboardSummary, SUMMARY_COLUMNS } from "../dashboard/index.ts";
import { DISPUTE_OUTCOMES } from "../disputes/outcomes.ts";
import { csvTextCell, formatDateTime, Prisma, type PrismaClient } from "@mw/platform";
import { SYSTEM_SKUS } from "../orders/submission.ts";
import { periodBounds, type ReportPeriod, type ReportType } from "./period.ts";

/** A report's content: the CSV header and its rows, in order. */
export interface ReportTable {
  columns: string[];
  rows: (string | number)[][];
}

type Builder = (prisma: PrismaClient, period: ReportPeriod) => Promise<ReportTable>;

/** COUNT and SUM arrive as BigInt or Decimal depending on the driver's reading of the type. */
function int(value: unknown): number {
  return value === null || value === undefined ? 0 : Number(value);
}

function money(value: unknown): string {
  return value === null || value === undefined ? "0.00" : new Prisma.Decimal(String(value)).toFixed(2);
}

/**
 * Orders taken in per UTC day (arrival, `created_at`), site and payment
 * method: how many, how many reached the ERP, and the merchandise value
 * (catalogue lines: quantity × unit price − discount; system lines excluded).
 */
const orderIntake: Builder = async (prisma, period) => {
  const { start, end } = periodBounds(period);
  const system = Prisma.join(SYSTEM_SKUS.map((sku) => Prisma.sql`${sku}`));
  // `imported IN (0, 1)` lets the (imported, created_at) index serve the date range.
  const rows = await prisma.$queryRaw<Record<string, unknown>[]>`
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
  return {
    columns: ["date", "site_id", "site_name", "payment_method", "orders", "exported", "pending", "merchandise_total"],
    rows: rows.map((row) => [
      String(row.day),
      int(row.site_id),
      csvTextCell(row.site_name),
      csvTextCell(row.payment_method),
      int(row.orders),
      int(row.exported),
      int(row.pending),
      money(row.merchandise_total),
    ]),
  };
};

/**
 * Acquirer disputes received in the period by how processing ended: every
 * known outcome (zero included, so the shape never changes), `pending` for
 * those not finished yet, then any other outcome found.
 */
const disputeOutcomes: Builder = async (prisma, period) => {
  const { start, end } = periodBounds(period);
  const counted = await prisma.$queryRaw<{ outcome: string; disputes: unknown }[]>`
    SELECT COALESCE(outcome, 'pending') AS outcome, COUNT(*) AS disputes
    FROM webhook_events
    WHERE source = 'acquirer' AND received_at >= ${start} AND received_at < ${end}
    GROUP BY COALESCE(outcome, 'pending')`;
  const byOutcome = new Map(counted.map((row) => [row.outcome, int(row.disputes)]));
  const described: [string, string][] = [...Object.entries(DISPUTE_OUTCOMES), ["pending", "Received, not processed yet"]];
  const known = new Set(described.map(([outcome]) => outcome));
  const others = [...byOutcome.keys()].filter((outcome) => !known.has(outcome)).sort();
  return {
    columns: ["outcome", "description", "disputes"],
    rows: [
      ...described.map(([outcome, description]) => [outcome, description, byOutcome.get(outcome) ?? 0]),
      ...others.map((outcome) => [csvTextCell(outcome), "", byOutcome.get(outcome)!]),
    ],
  };
};

/**
 * Inventory sync per site over the period: runs and their outcome, the
 * summed counts of the runs (`sync_runs.counts`), distinct SKUs recorded in
 * item_history, the last run. Sites with inventory sync on are listed even
 * without a run, so a site that stopped syncing shows.
 */
const inventorySyncSummary: Builder = async (prisma, period) => {
  const { start, end } = periodBounds(period);
  const [runs, history] = await Promise.all([
    prisma.$queryRaw<Record<string, unknown>[]>`
      SELECT s.id AS site_id, s.name AS site_name, COUNT(r.id) AS runs,
             SUM(r.status = 'completed') AS completed, SUM(r.status = 'failed') AS failed,
             SUM(JSON_VALUE(r.counts, '$.items')) AS items, SUM(JSON_VALUE(r.counts, '$.pushed')) AS pushed,
             SUM(JSON_VALUE(r.counts, '$.forced_zero')) AS forced_zero,
             SUM(JSON_VALUE(r.counts, '$.not_on_storefront')) AS not_on_storefront,
             SUM(JSON_VALUE(r.counts, '$.errors')) AS errors, MAX(r.started_at) AS last_run_at
      FROM sites s
      LEFT JOIN sync_runs r ON r.site_id = s.id AND r.kind = 'inventory' AND r.started_at >= ${start} AND r.started_at < ${end}
      GROUP BY s.id, s.name, s.inventory_sync
      HAVING s.inventory_sync = 1 OR COUNT(r.id) > 0
      ORDER BY s.name, s.id`,
    prisma.$queryRaw<{ site_id: number; skus: unknown }[]>`
      SELECT site_id, COUNT(DISTINCT sku) AS skus FROM item_history
      WHERE synced_at >= ${start} AND synced_at < ${end}
      GROUP BY site_id`,
  ]);
  const skus = new Map(history.map((row) => [int(row.site_id), int(row.skus)]));
  return {
    columns: ["site_id", "site_name", "runs", "completed", "failed", "items", "pushed", "forced_zero", "not_on_storefront", "errors", "skus_recorded", "last_run_at"],
    rows: runs.map((row) => [
      int(row.site_id),
      csvTextCell(row.site_name),
      int(row.runs),
      int(row.completed),
      int(row.failed),
      int(row.items),
      int(row.pushed),
      int(row.forced_zero),
      int(row.not_on_storefront),
      int(row.errors),
      skus.get(int(row.site_id)) ?? 0,
      row.last_run_at instanceof Date ? formatDateTime(row.last_run_at)! : "",
    ]),
  };
};

/** The management dashboard's summary as it stands when the report runs (design 10.6); the period names the day. */
const dashboard: Builder = async (prisma) => ({ columns: SUMMARY_COLUMNS, rows: await dashboardSummary(prisma) });

export const REPORT_BUILDERS: Record<ReportType, Builder> = {
  "order-intake-daily": orderIntake,
  "dispute-outcomes": disputeOutcomes,
  "inventory-sync-summary": inventorySyncSummary,
  "dashboard-summary": dashboard,
};

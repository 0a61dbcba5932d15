import { dashboardSummary, SUMMARY_COLUMNS } from "../managed-sites/index.ts";
import { DISPUTE_OUTCOMES } from "../disputes/index.ts";
import { syncedSkuCounts } from "../inventory/index.ts";
import { dailyIntakeBatches } from "../orders/index.ts";
import { formatDateTime } from "@mw/platform/core";
import { csvTextCell } from "@mw/platform/text";
import type { Connections } from "@mw/platform/connections";
import { inventoryRunSummary } from "../sites/index.ts";
import { acquirerOutcomeCounts } from "../webhooks/index.ts";
import type { CsvRow as ReportRow } from "./csv-chunks.ts";
import { periodBounds, type ReportPeriod, type ReportType } from "./period.ts";

/** A report's content: the CSV header and its rows, in order, in batches a report writes as they come. */
export interface ReportTable {
  columns: string[];
  batches: AsyncIterable<ReportRow[]>;
}

/** A report small enough to read at once (a row per outcome, per site, per dashboard line): one batch. */
async function* oneBatch(rows: ReportRow[]): AsyncGenerator<ReportRow[]> {
  yield rows;
}

/**
 * Reports read from the replica: a report of past periods tolerates lag. The
 * queries they compose take a plain `{ prisma }` and are handed the replica.
 */
type Builder = (deps: Pick<Connections, "replica">, period: ReportPeriod) => Promise<ReportTable>;

/**
 * Orders taken in per UTC day (arrival, `created_at`), site and payment
 * method: how many, how many reached the ERP, and the merchandise value
 * (catalogue lines: quantity × unit price − discount; system lines excluded).
 */
const orderIntake: Builder = async (deps, period) => ({
  columns: ["date", "site_id", "site_name", "payment_method", "orders", "exported", "pending", "merchandise_total"],
  batches: (async function* () {
    for await (const rows of dailyIntakeBatches({ prisma: deps.replica }, periodBounds(period))) {
      yield rows.map((row): ReportRow => [
        row.day,
        row.site_id,
        csvTextCell(row.site_name),
        csvTextCell(row.payment_method),
        row.orders,
        row.exported,
        row.pending,
        row.merchandise_total,
      ]);
    }
  })(),
});

/**
 * Acquirer disputes received in the period by how processing ended: every
 * known outcome (zero included, so the shape never changes), `pending` for
 * those not finished yet, then any other outcome found.
 */
const disputeOutcomes: Builder = async (deps, period) => {
  const byOutcome = await acquirerOutcomeCounts({ prisma: deps.replica }, periodBounds(period));
  const described: [string, string][] = [...Object.entries(DISPUTE_OUTCOMES), ["pending", "Received, not processed yet"]];
  const known = new Set(described.map(([outcome]) => outcome));
  const others = [...byOutcome.keys()].filter((outcome) => !known.has(outcome)).sort();
  return {
    columns: ["outcome", "description", "disputes"],
    batches: oneBatch([
      ...described.map(([outcome, description]) => [outcome, description, byOutcome.get(outcome) ?? 0]),
      ...others.map((outcome) => [csvTextCell(outcome), "", byOutcome.get(outcome)!]),
    ]),
  };
};

/**
 * Inventory sync per site over the period: runs and their outcome, the
 * summed counts of the runs (`sync_runs.counts`), distinct SKUs recorded in
 * item_history, the last run. Sites with inventory sync on are listed even
 * without a run, so a site that stopped syncing shows.
 */
const inventorySyncSummary: Builder = async (deps, period) => {
  const bounds = periodBounds(period);
  const db = { prisma: deps.replica };
  const [runs, skus] = await Promise.all([inventoryRunSummary(db, bounds), syncedSkuCounts(db, bounds)]);
  return {
    columns: ["site_id", "site_name", "runs", "completed", "failed", "items", "pushed", "forced_zero", "not_on_storefront", "errors", "skus_recorded", "last_run_at"],
    batches: oneBatch(
      runs.map((row) => [
        row.site_id,
        csvTextCell(row.site_name),
        row.runs,
        row.completed,
        row.failed,
        row.items,
        row.pushed,
        row.forced_zero,
        row.not_on_storefront,
        row.errors,
        skus.get(row.site_id) ?? 0,
        row.last_run_at ? formatDateTime(row.last_run_at)! : "",
      ]),
    ),
  };
};

/** The management dashboard's summary as it stands when the report runs (design 10.6); the period names the day. */
const dashboard: Builder = async (deps) => ({ columns: SUMMARY_COLUMNS, batches: oneBatch(await dashboardSummary(deps)) });

export const REPORT_BUILDERS: Record<ReportType, Builder> = {
  "order-intake-daily": orderIntake,
  "dispute-outcomes": disputeOutcomes,
  "inventory-sync-summary": inventorySyncSummary,
  "dashboard-summary": dashboard,
};

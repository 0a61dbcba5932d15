import { z } from "zod";
import type { Connections } from "@mw/platform/connections";

const count = z.number().int().min(0);

/**
 * What a tracking run did: written by the tracking sync, read by GET
 * /tracking/status, whose OpenAPI entry shows these descriptions. Per-order
 * and per-tracking-number reasons a run left something alone sit beside
 * what it did; reasons added later read as 0 on older rows.
 */
export const trackingRunCounts = z.object({
  orders: count.describe("storefront orders in the site's status filters"),
  shipments_created: count.describe("tracking numbers posted to the storefront"),
  already_posted: count.describe("tracking numbers on the storefront already"),
  skipped_carrier: count.describe("ERP shipments of an excluded carrier (CPU, customer pickup)"),
  skipped_invalid: count.describe("ERP shipments whose tracking number is a placeholder"),
  unmapped_carrier: count.describe("tracking numbers posted without a carrier: no carrier mapping"),
  not_linked: count.default(0).describe("storefront orders never received by the middleware: nothing links them to an ERP sales order"),
  not_exported: count.default(0).describe("storefront orders received but not exported to the ERP yet"),
  awaiting_shipment: count.default(0).describe("exported orders whose ERP sales order has no shipment with a tracking number yet"),
  claimed_by_other_run: count.default(0).describe("tracking numbers another run of the site was posting: left to it"),
  completed: count.describe("orders auto-completed"),
  errors: count.describe("orders the storefront refused"),
});

/** What an inventory run did: written by the inventory sync, summed by the inventory-sync-summary report. */
const inventoryRunCounts = z.object({
  /** Storefront stock items (SKUs) the ERP has a figure for. */
  items: count,
  /** Of those, the ones whose storefront stock was changed. */
  pushed: count,
  /** Of the items, the ones set to 0 because the ERP stock is below the site's out_of_stock_threshold. */
  forced_zero: count,
  /** ERP items no storefront product or variant carries, stock-tracked or not (full runs only). */
  not_on_storefront: count,
  /** Items the storefront refused. */
  errors: count,
});

export type TrackingCounts = z.infer<typeof trackingRunCounts>;
export type InventoryCounts = z.infer<typeof inventoryRunCounts>;
export type OrderImportCounts = z.infer<typeof orderImportRunCounts>;

/** What a storefront order import did. */
const orderImportRunCounts = z.object({
  /** Orders the storefront listed (new or changed since the last run, in the status filters). */
  orders: count,
  /** Stored as new orders, their export queued. */
  imported: count,
  /** Already stored for the site (pushed by the ERP, or imported before): left as they are. */
  already_stored: count,
  /** Refused by the intake's rules (unknown SKU, invalid field); each is a sync error naming why. */
  rejected: count,
});

/** `sync_runs.counts` by the run's kind: one schema for the writer and every reader. */
export const SYNC_RUN_COUNTS = { tracking: trackingRunCounts, inventory: inventoryRunCounts, orders: orderImportRunCounts };
export type SyncKind = keyof typeof SYNC_RUN_COUNTS;
type CountsOf<K extends SyncKind> = z.infer<(typeof SYNC_RUN_COUNTS)[K]>;

/**
 * One `sync_runs` row per tracking or inventory run: written `running` when
 * the run starts and closed with its counts, so GET /tracking/status and the
 * site list show what the last runs did (and a run that died mid-way stays
 * visible as `running` with no `finished_at`).
 */
export async function startRun(deps: Pick<Connections, "prisma">, siteId: number, kind: SyncKind, jobId: string | undefined): Promise<number> {
  const run = await deps.prisma.syncRun.create({ data: { site_id: siteId, kind, job_id: jobId ?? null, status: "running" }, select: { id: true } });
  return run.id;
}

/** `updateMany`, not `update`: a site deleted during its run takes the row with it, and that must not fail the job a second time. */
export async function finishRun<K extends SyncKind>(deps: Pick<Connections, "prisma">, runId: number, kind: K, result: { counts: CountsOf<K>; error?: string }): Promise<void> {
  const counts = SYNC_RUN_COUNTS[kind].parse(result.counts);
  await deps.prisma.syncRun.updateMany({
    where: { id: runId },
    data: { status: result.error === undefined ? "completed" : "failed", counts, error: result.error ?? null, finished_at: new Date() },
  });
}

/** A stored run's counts; null for a run still going, or one whose row holds no readable counts. */
export function readRunCounts<K extends SyncKind>(kind: K, stored: unknown): CountsOf<K> | null {
  const parsed = SYNC_RUN_COUNTS[kind].safeParse(stored);
  return parsed.success ? (parsed.data as CountsOf<K>) : null;
}

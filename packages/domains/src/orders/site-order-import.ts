import type { Config } from "@mw/platform/config";
import type { Logger } from "@mw/platform/logging";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { wooStatuses } from "@mw/providers/storefront-b";
import { markLastRun, startSiteSync, storefrontAClientFor, storefrontBClientFor, type OrderImportCounts, type Site } from "../sites/index.ts";
import { importStorefrontOrder, type ListedOrder } from "./storefront-import.ts";
import { storefrontAOrderBody, storefrontBOrderBody, type SubmissionBody } from "./storefront-orders.ts";

/**
 * How far back each run looks before the last one started: an order modified
 * while that run was reading may not have been in its pages. Importing is
 * idempotent (an order already stored is left alone), so the overlap costs
 * only a few rows read twice.
 */
const IMPORT_OVERLAP_MS = 5 * 60_000;

function read(number: string, raw: unknown, toBody: (raw: unknown) => SubmissionBody): ListedOrder {
  try {
    return { number, body: toBody(raw) };
  } catch (error) {
    return { number, unreadable: `storefront order ${number} could not be read: ${(error as Error).message.split("\n")[0]}` };
  }
}

/** The site's orders in its status filters (and channel) changed since `since`, each as an intake submission. */
async function listOrders(site: Site, config: Config, since: Date | undefined, log: Logger): Promise<ListedOrder[]> {
  const codes = site.status_filters.split(",").map(Number).filter(Number.isInteger);
  if (site.platform === "storefront_a") {
    const client = storefrontAClientFor(site, config);
    const channel = (site.channel_filter as { channel_id?: unknown } | null)?.channel_id;
    const listed: ListedOrder[] = [];
    for (const statusId of codes) {
      const orders = await client.listOrders({ statusId, channelId: typeof channel === "number" ? channel : undefined, modifiedSince: since, lineItems: true });
      listed.push(...orders.map((order) => read(String(order.id), order, storefrontAOrderBody)));
    }
    return listed;
  }
  const { statuses, unknown } = wooStatuses(codes);
  if (unknown.length) log.warn("status filters with no WooCommerce status are ignored", { status_codes: unknown });
  if (!statuses.length) return [];
  const orders = await storefrontBClientFor(site, config).listOrders(statuses, { modifiedAfter: since });
  return orders.map((order) => read(order.number, order, storefrontBOrderBody));
}

/**
 * `orders-import` (spec 1, 2.2 `orders_sync`): one site's new and changed
 * storefront orders, stored as external orders through the intake's rules
 * (validation, truncation, SKU check) and queued for export. An order the
 * site already has (pushed by the ERP, or imported before) is left as it is,
 * so an order arriving both ways is stored once. `order_last_run` moves to
 * the run's start only when the run completes; each run leaves a `sync_runs`
 * row with its counts, and each refused order a sync error naming why.
 */
export async function importSiteOrders(
  deps: Pick<Connections, "prisma" | "sql" | "queues" | "config"> & Pick<JobRun, "log" | "progress">,
  siteId: number,
  jobId: string | undefined,
) {
  const log = deps.log.child({ site_id: siteId });
  const sync = await startSiteSync(deps, "orders", siteId, jobId, log);
  if ("skipped" in sync) return sync;
  const { site, runId } = sync;
  const since = site.order_last_run ? new Date(site.order_last_run.getTime() - IMPORT_OVERLAP_MS) : undefined;
  const counts: OrderImportCounts = { orders: 0, imported: 0, already_stored: 0, rejected: 0 };
  try {
    log.info("reading storefront orders", { modified_since: since?.toISOString() ?? "any time" });
    const listed = await listOrders(site, deps.config, since, log);
    counts.orders = listed.length;
    for (const [i, order] of listed.entries()) {
      counts[await importStorefrontOrder(deps, site.id, order, log)] += 1;
      await deps.progress(i + 1, listed.length, "orders");
    }
    await markLastRun(deps, site.id, "orders", sync.startedAt);
    await sync.finish(counts);
    log.info("order import finished", counts);
    return { run_id: runId, counts };
  } catch (error) {
    await sync.fail(counts, error);
    throw error;
  }
}

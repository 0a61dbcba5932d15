import type { Platform, Prisma, Site, SyncRun } from "@mw/platform/prisma";
import type { Connections } from "@mw/platform/connections";
import { INVENTORY_SYNC_SITES, ORDER_IMPORT_SITES, TRACKING_SYNC_SITES } from "./sync-eligibility.ts";
import type { SyncKind } from "./sync-runs.ts";

// What the sync domains (tracking, inventory and its product webhooks) read of sites.

type Deps = Pick<Connections, "prisma">;

/** A site's sync switches, and whether it has storefront credentials at all. */
export interface SyncSettings {
  id: number;
  is_active: boolean;
  orders_sync: boolean;
  inventory_sync: boolean;
  tracking_sync: boolean;
  tracking_enabled: boolean;
  has_api_credentials: boolean;
}

const SETTINGS = { id: true, is_active: true, orders_sync: true, inventory_sync: true, tracking_sync: true, tracking_enabled: true, api_credentials: true } as const;

function settingsOf({ api_credentials, ...flags }: Pick<Site, keyof typeof SETTINGS>): SyncSettings {
  return { ...flags, has_api_credentials: Boolean(api_credentials) };
}

const SYNCING: Record<SyncKind, Prisma.SiteWhereInput> = { tracking: TRACKING_SYNC_SITES, inventory: INVENTORY_SYNC_SITES, orders: ORDER_IMPORT_SITES };

export async function findSyncSettings(deps: Deps, id: number): Promise<SyncSettings | null> {
  const site = await deps.prisma.site.findUnique({ where: { id }, select: SETTINGS });
  return site && settingsOf(site);
}

/** The sites that take part in a sync, by id. */
export async function syncingSites(deps: Deps, kind: SyncKind): Promise<SyncSettings[]> {
  const sites = await deps.prisma.site.findMany({ where: SYNCING[kind], select: SETTINGS, orderBy: { id: "asc" } });
  return sites.map(settingsOf);
}

/** Every site that a bulk `kind` sync leaves out, with why (a bulk trigger answers what it skipped, not only what it queued). */
export async function sitesNotSyncing(deps: Deps, kind: SyncKind): Promise<{ site_id: number; reason: string }[]> {
  const sites = await deps.prisma.site.findMany({ where: { NOT: SYNCING[kind] }, select: { id: true, is_active: true }, orderBy: { id: "asc" } });
  return sites.map((site) => ({ site_id: site.id, reason: notSyncingReason(site, kind) }));
}

const SWITCHES: Record<SyncKind, string> = {
  tracking: "tracking sync is off for this site (it needs tracking_sync and tracking_enabled)",
  inventory: "inventory sync is off for this site",
  orders: "order import is off for this site (orders_sync)",
};

function notSyncingReason(site: Pick<Site, "is_active">, kind: SyncKind): string {
  return site.is_active ? SWITCHES[kind] : "the site is inactive";
}

/** What a product webhook is checked against; null when there is no such site. */
export async function findWebhookSite(
  deps: Deps,
  id: number,
): Promise<Pick<Site, "id" | "platform" | "webhook_secret" | "is_active" | "inventory_sync"> | null> {
  return deps.prisma.site.findUnique({ where: { id }, select: { id: true, platform: true, webhook_secret: true, is_active: true, inventory_sync: true } });
}

/** ERP carrier code (upper case) to the platform's code. */
export async function carrierCodes(deps: Deps, platform: Platform): Promise<Map<string, string>> {
  const rows = await deps.prisma.carrierMapping.findMany({ where: { platform }, select: { erp_carrier_code: true, platform_carrier_code: true } });
  return new Map(rows.map((row) => [row.erp_carrier_code.toUpperCase(), row.platform_carrier_code]));
}

/** A site's latest run of a kind, and its latest failed one. */
export async function latestSyncRuns(deps: Deps, siteId: number, kind: SyncKind): Promise<{ last: SyncRun | null; lastFailed: SyncRun | null }> {
  const latest = { orderBy: [{ started_at: "desc" as const }, { id: "desc" as const }] };
  const [last, lastFailed] = await Promise.all([
    deps.prisma.syncRun.findFirst({ where: { site_id: siteId, kind }, ...latest }),
    deps.prisma.syncRun.findFirst({ where: { site_id: siteId, kind, status: "failed" }, ...latest }),
  ]);
  return { last, lastFailed };
}

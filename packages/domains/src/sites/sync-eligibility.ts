import type { Prisma, Site } from "@mw/platform/prisma";

/**
 * Sites whose shipments are synced (and scheduled): active, with the list's
 * `tracking_sync` and the spec's tracking enable flag `tracking_enabled` both on.
 */
export const TRACKING_SYNC_SITES = { is_active: true, tracking_sync: true, tracking_enabled: true } satisfies Prisma.SiteWhereInput;

/** Sites whose storefront orders are imported (spec 1, 2.2 `orders_sync`): active, with orders sync on. */
export const ORDER_IMPORT_SITES = { is_active: true, orders_sync: true } satisfies Prisma.SiteWhereInput;

/** ORDER_IMPORT_SITES for a row in hand. */
export function orderImportEnabled(site: Pick<Site, "is_active" | "orders_sync">): boolean {
  return site.is_active && site.orders_sync;
}

/** Sites whose stock is synced: active, with inventory sync on. */
export const INVENTORY_SYNC_SITES = { is_active: true, inventory_sync: true } satisfies Prisma.SiteWhereInput;

/** TRACKING_SYNC_SITES for a row in hand. */
export function trackingSyncEnabled(site: Pick<Site, "is_active" | "tracking_sync" | "tracking_enabled">): boolean {
  return site.is_active && site.tracking_sync && site.tracking_enabled;
}

/** INVENTORY_SYNC_SITES for a row in hand. */
export function inventorySyncEnabled(site: Pick<Site, "is_active" | "inventory_sync">): boolean {
  return site.is_active && site.inventory_sync;
}

import type { Site } from "../generated/prisma/client.ts";

/** A site's tracking is synced (and scheduled) only while it is active with both tracking switches on. */
export function trackingSyncEnabled(site: Pick<Site, "is_active" | "tracking_sync" | "tracking_enabled">): boolean {
  return site.is_active && site.tracking_sync && site.tracking_enabled;
}

/** A site's stock is synced only while it is active with inventory sync on. */
export function inventorySyncEnabled(site: Pick<Site, "is_active" | "inventory_sync">): boolean {
  return site.is_active && site.inventory_sync;
}

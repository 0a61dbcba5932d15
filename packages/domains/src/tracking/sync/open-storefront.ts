import { storefrontAClientFor, storefrontBClientFor, type Site } from "../../sites/index.ts";
import type { Config } from "@mw/platform/config";
import type { Logger } from "@mw/platform/logging";
import { StorefrontATracking } from "./storefront-a.ts";
import { hasShipmentTracking, StorefrontBTracking } from "./storefront-b.ts";
import type { TrackingOrder, TrackingSettings, TrackingStorefront } from "./storefront.ts";

function trackingSettings(site: Site): TrackingSettings {
  const channel = site.channel_filter as { channel_id?: unknown } | null;
  return {
    statusFilters: site.status_filters.split(",").map(Number).filter(Number.isInteger),
    autoComplete: site.auto_complete,
    sendCustomerEmail: site.send_customer_email,
    channelId: typeof channel?.channel_id === "number" ? channel.channel_id : null,
  };
}

/** The site's storefront as the tracking sync sees it; storefront_b asks the site whether the Shipment Tracking extension is active. */
export async function openTrackingStorefront(site: Site, config: Config, log: Logger): Promise<TrackingStorefront<TrackingOrder>> {
  const settings = trackingSettings(site);
  if (site.platform === "storefront_a") return new StorefrontATracking(storefrontAClientFor(site, config), settings);
  const client = storefrontBClientFor(site, config);
  const extension = await hasShipmentTracking(client);
  log.info(extension ? "Shipment Tracking extension found: tracking numbers go in as tracking items" : "no Shipment Tracking extension: tracking numbers go in as order notes");
  return new StorefrontBTracking(client, settings, extension, log);
}

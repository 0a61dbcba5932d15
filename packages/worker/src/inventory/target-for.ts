import { storefrontAClientFor, storefrontBClientFor, type Config } from "@mw/shared";
import type { Site } from "@mw/shared/generated/prisma/client";
import { StorefrontAInventory } from "./storefront-a.ts";
import { StorefrontBInventory } from "./storefront-b.ts";
import type { InventoryTarget } from "./target.ts";

export function inventoryTargetFor(site: Site, config: Config): InventoryTarget {
  return site.platform === "storefront_a" ? new StorefrontAInventory(storefrontAClientFor(site, config)) : new StorefrontBInventory(storefrontBClientFor(site, config));
}

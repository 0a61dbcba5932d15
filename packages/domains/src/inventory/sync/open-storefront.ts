import { storefrontAClientFor, storefrontBClientFor, type Site } from "../../sites/index.ts";
import type { Config } from "@mw/platform/config";
import { StorefrontAInventory } from "./storefront-a.ts";
import { StorefrontBInventory } from "./storefront-b.ts";
import type { InventoryStorefront } from "./storefront.ts";

export function openInventoryStorefront(site: Site, config: Config): InventoryStorefront {
  return site.platform === "storefront_a" ? new StorefrontAInventory(storefrontAClientFor(site, config)) : new StorefrontBInventory(storefrontBClientFor(site, config));
}

import type { DomainRoutes } from "../../http/domain-routes.ts";
import { apiKeyRoutes } from "./api-keys.ts";
import { carrierMappingRoutes } from "./carrier-mappings.ts";
import { siteRoutes } from "./sites.ts";
import { syncRunRoutes } from "./sync-runs.ts";

export const sitesDomain: DomainRoutes = { api: [siteRoutes, carrierMappingRoutes, apiKeyRoutes, syncRunRoutes] };

import type { DomainRoutes } from "../../http/domain-routes.ts";
import { managedSitesActions } from "./admin-actions.ts";

export const managedSitesDomain: DomainRoutes = { adminActions: [managedSitesActions] };

import type { DomainRoutes } from "../../http/domain-routes.ts";
import { dashboardActions } from "./admin-actions.ts";

export const dashboardDomain: DomainRoutes = { adminActions: [dashboardActions] };

import type { DomainRoutes } from "../../http/domain-routes.ts";
import { reportRoutes } from "./reports.ts";

export const reportsDomain: DomainRoutes = { api: [reportRoutes] };

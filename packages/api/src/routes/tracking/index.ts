import type { DomainRoutes } from "../../http/domain-routes.ts";
import { trackingRoutes } from "./tracking.ts";

export const trackingDomain: DomainRoutes = { api: [trackingRoutes] };

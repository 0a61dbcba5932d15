import type { DomainRoutes } from "../../http/domain-routes.ts";
import { ticketChangesRoutes } from "./changes.ts";
import { ticketSignalRoutes } from "./signals.ts";
import { urgencyReadRoutes } from "./urgency.ts";

export const ticketsDomain: DomainRoutes = { rest: [ticketSignalRoutes, urgencyReadRoutes, ticketChangesRoutes] };

import type { DomainRoutes } from "../../http/domain-routes.ts";
import { ticketChangesRoutes } from "./changes.ts";
import { ticketSignalRoutes } from "./signals.ts";

export const ticketsDomain: DomainRoutes = { rest: [ticketSignalRoutes, ticketChangesRoutes] };

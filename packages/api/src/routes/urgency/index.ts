import type { DomainRoutes } from "../../http/domain-routes.ts";
import { urgencyReadRoutes } from "./reads.ts";

export const urgencyDomain: DomainRoutes = { rest: [urgencyReadRoutes] };

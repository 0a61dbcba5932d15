import type { DomainRoutes } from "../../http/domain-routes.ts";
import { urgencyReadRoutes, urgencyStaffRoutes } from "./reads.ts";

export const urgencyDomain: DomainRoutes = { rest: [urgencyReadRoutes], staffAjax: [urgencyStaffRoutes] };

import type { DomainRoutes } from "../../http/domain-routes.ts";
import { timeConnectionRoutes } from "./connection.ts";
import { scheduledTimeRoutes } from "./scheduled.ts";
import { timerRoutes } from "./timers.ts";

export const timetrackingDomain: DomainRoutes = { rest: [scheduledTimeRoutes], staffAjax: [timeConnectionRoutes, timerRoutes] };

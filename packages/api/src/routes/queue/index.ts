import type { DomainRoutes } from "../../http/domain-routes.ts";
import { jobActions } from "./admin-actions.ts";
import { boardRoutes } from "./board.ts";
import { queueRoutes } from "./queue.ts";
import { queueUtilityActions } from "./utility-actions.ts";

export const queueDomain: DomainRoutes = { api: [queueRoutes], adminActions: [jobActions, queueUtilityActions], pages: [boardRoutes] };

import type { DomainRoutes } from "../../http/domain-routes.ts";
import { knowledgeActions } from "./admin-actions.ts";
import { assistantRoutes } from "./assistant.ts";

export const knowledgeDomain: DomainRoutes = { staffAjax: [assistantRoutes], adminActions: [knowledgeActions] };

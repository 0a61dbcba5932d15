import type { DomainRoutes } from "../../http/domain-routes.ts";
import { aiActions } from "./admin-actions.ts";
import { aiRoutes } from "./ai.ts";
import { aiSettingsRoutes } from "./settings.ts";

export const aiDomain: DomainRoutes = { rest: [aiRoutes, aiSettingsRoutes], adminActions: [aiActions] };

import type { DomainRoutes } from "../../http/domain-routes.ts";
import { staffNotificationRoutes } from "./staff-notifications.ts";

export const notificationsDomain: DomainRoutes = { staffAjax: [staffNotificationRoutes] };

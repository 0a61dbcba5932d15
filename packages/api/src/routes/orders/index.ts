import type { DomainRoutes } from "../../http/domain-routes.ts";
import { externalOrderRoutes } from "./external-orders.ts";
import { orderVolumeRoutes } from "./order-volume.ts";
import { orderRoutes } from "./orders.ts";
import { statsRoutes } from "./stats.ts";

export const ordersDomain: DomainRoutes = { hot: [externalOrderRoutes], api: [orderRoutes, statsRoutes], rest: [orderVolumeRoutes] };

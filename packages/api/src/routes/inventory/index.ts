import type { DomainRoutes } from "../../http/domain-routes.ts";
import { inventoryTestingRoutes } from "./inventory-testing.ts";
import { itemRoutes } from "./items.ts";
import { productWebhookRoutes } from "./product-webhook.ts";

export const inventoryDomain: DomainRoutes = { hot: [productWebhookRoutes], api: [itemRoutes, inventoryTestingRoutes] };

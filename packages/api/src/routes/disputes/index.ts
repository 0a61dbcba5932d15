import type { DomainRoutes } from "../../http/domain-routes.ts";
import { acquirerWebhookRoutes } from "./acquirer-webhook.ts";
import { disputeRoutes } from "./disputes.ts";
import { merchantRoutes } from "./merchants.ts";

export const disputesDomain: DomainRoutes = { hot: [acquirerWebhookRoutes], api: [merchantRoutes, disputeRoutes] };

import type { DomainRoutes } from "../../http/domain-routes.ts";
import { reviewRoutes } from "./reviews.ts";

export const reviewsDomain: DomainRoutes = { api: [reviewRoutes] };

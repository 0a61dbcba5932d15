import type { DomainRoutes } from "../../http/domain-routes.ts";
import { imageRoutes } from "./images.ts";

export const imagesDomain: DomainRoutes = { images: [imageRoutes] };

import type { Router } from "express";
import type { AppContext } from "../context.ts";
import type { AdminAction } from "./admin-ajax.ts";
import type { ApiRouter } from "./api-router.ts";

export type RouteRegistrar = (router: ApiRouter, ctx: AppContext) => void;

/**
 * What one domain adds to the API, as the worker's job catalog lists what it
 * adds to the worker: `routes/<domain>/index.ts` exports one of these and
 * app.ts mounts them all. Each list is mounted in the order of the domains'
 * entries in app.ts; within a domain, in the order given here.
 */
export interface DomainRoutes {
  /** Mounted under API_ROOT before every other route (Express tries routes in order): the hot public endpoints. */
  hot?: RouteRegistrar[];
  /** Spec 1's REST routes, under API_ROOT. */
  api?: RouteRegistrar[];
  /** Spec 2's REST routes, under REST_ROOT. */
  rest?: RouteRegistrar[];
  /** The staff AJAX routes, under /scp/ajax.php (errors in the AJAX shape). */
  staffAjax?: RouteRegistrar[];
  /** The image API, under /api (errors as `{error}`). */
  images?: RouteRegistrar[];
  /** Admin AJAX actions, called by name at /admin-ajax. */
  adminActions?: ((ctx: AppContext) => AdminAction[])[];
  /** Browser pages with their own Express router (sign-in, Bull Board, the console), mounted before the JSON body parser. */
  pages?: ((ctx: AppContext) => Router)[];
}

import { BOARD_PATH } from "@mw/platform";
import type { DomainRoutes } from "../../http/domain-routes.ts";
import { authRoutes } from "./auth.ts";
import { loginPageRoutes } from "./login-page.ts";

export const identityDomain: DomainRoutes = { api: [authRoutes], pages: [(ctx) => loginPageRoutes(ctx, BOARD_PATH)] };

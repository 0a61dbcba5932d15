import { z } from "zod";
import { principalOf } from "../../auth/authenticate.ts";
import { readSessionCookie, setSessionCookie } from "../../auth/cookies.ts";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { startSession } from "./sign-in.ts";

const principalBody = z.object({ id: z.number().int(), login: z.string(), capabilities: z.array(z.string()) });

export function authRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "logger" | "prisma" | "redis" | "sessions">): void {
  api.route({
    method: "post",
    path: "/auth/login",
    summary: "Start a browser session; answers the nonce to send as X-Nonce",
    tag: "auth",
    access: "public",
    body: z.object({ login: z.string().min(1).max(60), password: z.string().min(1).max(1024) }),
    responses: {
      200: { description: "Session started", schema: z.object({ success: z.literal(true), nonce: z.string(), user: principalBody }) },
      403: { description: "rest_forbidden: wrong login or password" },
      429: { description: "rate_limited: too many failed logins for this login or address; Retry-After says when to try again" },
    },
    example: {
      request: { login: "admin", password: "correct horse battery" },
      response: { success: true, nonce: "5f0c9b7e2d", user: { id: 1, login: "admin", capabilities: ["manage_middleware", "manage_options"] } },
    },
    handler: async ({ body }, req, res) => {
      const { principal, nonce } = await startSession(ctx, req, res, body.login, body.password);
      return {
        success: true,
        nonce,
        user: { id: principal.userId, login: principal.login, capabilities: principal.capabilities },
      };
    },
  });

  api.route({
    method: "post",
    path: "/auth/logout",
    summary: "End the browser session",
    tag: "auth",
    access: "authenticated",
    responses: { 200: { description: "Session ended", schema: z.object({ success: z.literal(true) }) } },
    example: { response: { success: true } },
    handler: async (_input, req, res) => {
      const sessionId = readSessionCookie(req);
      if (sessionId) await ctx.sessions.destroy(sessionId);
      setSessionCookie(res, ctx.config, null);
      return { success: true };
    },
  });

  api.route({
    method: "get",
    path: "/auth/me",
    summary: "The authenticated user",
    tag: "auth",
    access: "authenticated",
    responses: { 200: { description: "The user", schema: principalBody.extend({ via: z.string() }) } },
    example: { response: { id: 1, login: "admin", capabilities: ["manage_middleware", "manage_options"], via: "application_password" } },
    handler: (_input, _req, res) => {
      const principal = principalOf(res);
      return { id: principal.userId, login: principal.login, capabilities: principal.capabilities, via: principal.via };
    },
  });
}

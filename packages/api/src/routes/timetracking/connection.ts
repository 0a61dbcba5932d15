import { AppError } from "@mw/platform";
import { completeConnection, connectionStatus, connectUrl, disconnectStaff, requireTimeTracking, type TimeDeps } from "@mw/domains/timetracking";
import type { Request } from "express";
import { z } from "zod";
import { resolvePrincipal, staffIdOf } from "../../auth/authenticate.ts";
import { readConnectCookie, setConnectCookie } from "../../auth/cookies.ts";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The small page the provider's redirect lands on: same origin, nothing loaded from elsewhere. */
function callbackPage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}</style></head><body><h1>${escape(title)}</h1><p>${escape(message)}</p></body></html>`;
}

/** The callback's own path: the connect link's cookie goes only there. */
const callbackPath = (req: Request) => `${req.baseUrl}/timetracking/callback`;

/** Spec 2, 4.5: the staff member's OAuth connection to the time-tracking provider (design 10.4). */
export function timeConnectionRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "logger" | "options" | "prisma" | "queues" | "redis" | "sessions">): void {
  const deps: TimeDeps = ctx;

  api.route({
    method: "get",
    path: "/timetracking/status",
    summary: "Whether the signed-in staff member is connected to Harvest, and as whom",
    tag: "timetracking",
    access: "staff_or_manage_options",
    responses: {
      200: {
        description: "Connected (with the Harvest user, after refreshing an expiring token) or not; `reconnect` (with Harvest's `reason`) when Harvest refused to renew the connection and the staff member must connect again",
        schema: z.object({
          success: z.literal(true),
          data: z.object({
            connected: z.boolean(),
            user: z.object({ id: z.number(), name: z.string(), email: z.string().nullable() }).optional(),
            account_id: z.number().optional(),
            token_expires_at: z.string().optional(),
            reconnect: z.boolean().optional(),
            reason: z.string().optional(),
          }),
        }),
      },
    },
    example: { response: { success: true, data: { connected: true, user: { id: 1001, name: "Sam Staff", email: "sam@agency.example" }, account_id: 424242, token_expires_at: "2026-12-09T09:00:00.000Z" } } },
    handler: async (_input, _req, res) => {
      await requireTimeTracking(ctx.options);
      return { success: true as const, data: await connectionStatus(deps, staffIdOf(res)) };
    },
  });

  api.route({
    method: "get",
    path: "/timetracking/connect-url",
    summary: "The Harvest authorization URL, with a state token bound to this staff member and this browser (a cookie for the callback; single use, 10 minutes)",
    tag: "timetracking",
    access: "staff_or_manage_options",
    responses: { 200: { description: "Open `url` in the browser", schema: z.object({ success: z.literal(true), data: z.object({ url: z.string(), expires_in: z.number().int() }) }) } },
    example: {
      response: {
        success: true,
        data: { url: "https://id.getharvest.com/oauth2/authorize?client_id=<client id>&response_type=code&state=<state>&redirect_uri=https%3A%2F%2Fdesk.example%2Fscp%2Fajax.php%2Ftimetracking%2Fcallback", expires_in: 600 },
      },
    },
    handler: async (_input, req, res) => {
      await requireTimeTracking(ctx.options);
      const { url, expires_in, browserNonce } = await connectUrl(deps, staffIdOf(res));
      setConnectCookie(res, ctx.config, callbackPath(req), browserNonce, expires_in);
      return { success: true as const, data: { url, expires_in } };
    },
  });

  api.route({
    method: "get",
    path: "/timetracking/callback",
    summary: "Harvest's redirect after the staff member allowed access: from the browser that asked for the link, stores the tokens and says so on a small page",
    tag: "timetracking",
    access: "public",
    documentQuery: z.object({ code: z.string().optional(), state: z.string().optional(), scope: z.string().optional(), error: z.string().optional() }),
    responses: { 200: { description: "text/html: connected, as whom" }, 400: { description: "text/html: not connected, and why" } },
    example: { mediaType: "text/html", response: '<!doctype html><html lang="en">...<h1>Connected to Harvest</h1><p>Connected as Sam Staff (account Agency). You can close this window and return to the ticket.</p>...</html>' },
    handler: async (_input, req, res) => {
      const query = req.query as Record<string, string | undefined>;
      res.type("html").set("content-security-policy", "default-src 'none'; style-src 'unsafe-inline'");
      try {
        await requireTimeTracking(ctx.options);
        // Who came back: the link's cookie (the platform's pages), or the agent the ticket system signs in as (its proxy keeps cookies).
        const signedIn = await resolvePrincipal(ctx, req, { requireNonce: false }).catch(() => null);
        const browser = { nonce: readConnectCookie(req), staffId: signedIn?.staffId };
        const connected = await completeConnection(deps, { code: query.code, state: query.state, error: query.error }, browser);
        setConnectCookie(res, ctx.config, callbackPath(req), null, 0);
        res.status(200).send(callbackPage("Connected to Harvest", `Connected as ${connected.name} (account ${connected.account}). You can close this window and return to the ticket.`));
      } catch (error) {
        // Ours (expired state, settings missing) or Harvest's refusal (a spent code) is worth showing; an outage is not.
        const shown = error instanceof AppError && (error.status < 500 || error.permanent);
        if (!shown) ctx.logger.warn("oauth callback failed", { error: (error as Error).message });
        res.status(400).send(callbackPage("Not connected", shown ? error.message : "Harvest could not be reached. Try again in a moment."));
      }
      return undefined;
    },
  });

  api.route({
    method: "post",
    path: "/timetracking/disconnect",
    summary: "Remove the signed-in staff member's Harvest connection",
    tag: "timetracking",
    access: "staff_or_manage_options",
    responses: { 200: { description: "Whether there was a connection to remove", schema: z.object({ success: z.literal(true), data: z.object({ disconnected: z.boolean() }) }) } },
    example: { response: { success: true, data: { disconnected: true } } },
    handler: async (_input, _req, res) => {
      await requireTimeTracking(ctx.options);
      return { success: true as const, data: { disconnected: await disconnectStaff(ctx, staffIdOf(res)) } };
    },
  });
}

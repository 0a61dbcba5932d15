import express, { type Request, type Response, type Router } from "express";
import type { OpenAPIRegistry, RouteConfig } from "@asteasolutions/zod-to-openapi";
import type { Capability } from "@mw/domains/identity";
import type { z } from "zod";
import { requireCapability } from "../auth/authenticate.ts";
import { aiCaller, aiRateLimit } from "../auth/ai-key.ts";
import { cronCaller } from "../auth/cron-caller.ts";
import { requireImageKey } from "../auth/image-key.ts";
import { requireSiteKey } from "../auth/site-key.ts";
import type { AppContext } from "../context.ts";
import { errorBody, imageErrorBody } from "./openapi.ts";
import { parseOrThrow } from "./validation.ts";

type Schema = z.ZodType | undefined;
type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

/**
 * Who may call a route: anyone, any user, a user with a capability, a site's
 * API key, an image-API key, or an AI caller (the `ai-security-key`, rate
 * limited per address; `ai_key_or_session` also takes a logged-in user),
 * the ticket system (the same key, not rate limited: its signals are not AI
 * requests), staff and administrators alike, or a cron caller (public unless
 * CRON_TOKEN is set, rate limited per address).
 */
export type Access = "public" | "cron" | "authenticated" | "site_key" | "image_key" | "ai_key" | "ai_key_or_session" | "ticket_system" | "staff_or_manage_options" | Capability;

/** One worked example of an operation for the OpenAPI document. */
export interface OperationExample {
  request?: unknown;
  /** The successful answer; `status` when it is not the route's default success status. */
  response: unknown;
  status?: number;
  /** For answers that are not JSON (an HTML snippet, a CSV file). */
  mediaType?: string;
}

export interface RouteDefinition<P extends Schema, Q extends Schema, B extends Schema> {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** Express path relative to the router's mount point, e.g. `/sites/:id`. */
  path: string;
  summary: string;
  tag: string;
  access: Access;
  params?: P;
  query?: Q;
  body?: B;
  /** A body schema the handler validates itself (for its own error rules); documented like `body`. */
  documentBody?: z.ZodType;
  /** A query schema the handler reads itself (for its own error texts); documented like `query`. */
  documentQuery?: z.ZodObject;
  /** Status of a successful answer (default 200). */
  status?: number;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
  /** The worked example of the OpenAPI document: a request body where the route takes one, and its successful answer. */
  example: OperationExample;
  handler: (
    input: { params: Parsed<P>; query: Parsed<Q>; body: Parsed<B> },
    req: Request,
    res: Response,
  ) => unknown | Promise<unknown>;
}

const ERROR_RESPONSES: Record<Access | "validated", Record<number, string>> = {
  public: {},
  cron: { 401: "rest_forbidden: CRON_TOKEN is set and the Bearer token is missing or wrong", 429: "rate_limited: too many calls from this address; Retry-After says when" },
  authenticated: { 403: "rest_forbidden: no valid session or application password" },
  site_key: { 401: "Missing, invalid or revoked API key" },
  ai_key: { 401: "unauthorized: missing or wrong ai-security-key", 429: "rate_limited: too many requests from this address; Retry-After says when" },
  ai_key_or_session: { 401: "unauthorized: missing or wrong ai-security-key, and no session", 429: "rate_limited: too many requests from this address; Retry-After says when" },
  image_key: { 401: "Missing, invalid or revoked api_key" },
  ticket_system: { 401: "unauthorized: missing or wrong ai-security-key" },
  staff_or_manage_options: { 403: "rest_forbidden: no valid session or application password, or neither staff nor manage_options" },
  manage_middleware: { 403: "rest_forbidden: no valid session or application password, or the capability is missing" },
  manage_options: { 403: "rest_forbidden: no valid session or application password, or the capability is missing" },
  staff: { 403: "rest_forbidden: no valid session or application password, or the capability is missing" },
  validated: { 400: "Invalid or missing parameter" },
};

const SECURITY: Record<"public" | "cron" | "site_key" | "image_key" | "ai_key" | "ai_key_or_session" | "ticket_system" | "user", Record<string, string[]>[]> = {
  public: [],
  // Anonymous unless the deployment sets CRON_TOKEN.
  cron: [{}, { cronBearer: [] }],
  ai_key: [{ aiSecurityKey: [] }],
  ticket_system: [{ aiSecurityKey: [] }],
  ai_key_or_session: [{ aiSecurityKey: [] }, { sessionNonce: [] }],
  site_key: [{ siteBearer: [] }, { siteApiKey: [] }],
  image_key: [{ imageApiKey: [] }],
  user: [{ basicAuth: [] }, { sessionNonce: [] }],
};

function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}");
}

/**
 * Declares a route once: the same zod schemas validate the request and
 * describe it in the OpenAPI document, so the two cannot disagree.
 */
export class ApiRouter {
  readonly router: Router = express.Router();

  constructor(
    private readonly ctx: Pick<AppContext, "config" | "hotRedis" | "options" | "prisma" | "redis" | "sessions" | "siteKeys">,
    private readonly registry: OpenAPIRegistry,
    private readonly mountPath: string,
  ) {}

  route<P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined>(
    def: RouteDefinition<P, Q, B>,
  ): void {
    this.document(def);
    const pattern = `${this.mountPath}${def.path}`;
    const handlers: express.RequestHandler[] = [
      (_req, res, next) => {
        res.locals.route = pattern;
        next();
      },
    ];
    if (def.access === "cron") {
      handlers.push(...cronCaller(this.ctx));
    } else if (def.access === "site_key") {
      handlers.push(requireSiteKey(this.ctx));
    } else if (def.access === "image_key") {
      handlers.push(requireImageKey(this.ctx));
    } else if (def.access === "ai_key" || def.access === "ai_key_or_session") {
      handlers.push(aiRateLimit(this.ctx), aiCaller(this.ctx, { sessions: def.access === "ai_key_or_session" }));
    } else if (def.access === "ticket_system") {
      handlers.push(aiCaller(this.ctx, { sessions: false }));
    } else if (def.access === "staff_or_manage_options") {
      handlers.push(requireCapability(this.ctx, ["staff", "manage_options"]));
    } else if (def.access !== "public") {
      handlers.push(requireCapability(this.ctx, def.access === "authenticated" ? null : def.access));
    }
    handlers.push(async (req, res) => {
      const input = {
        params: (def.params ? parseOrThrow(def.params, req.params) : undefined) as Parsed<P>,
        query: (def.query ? parseOrThrow(def.query, req.query) : undefined) as Parsed<Q>,
        body: (def.body ? parseOrThrow(def.body, req.body ?? {}) : undefined) as Parsed<B>,
      };
      const result = await def.handler(input, req, res);
      // A handler that chose its own status (res.status) keeps it; otherwise the route's success status.
      if (!res.headersSent && result !== undefined) res.status(res.statusCode !== 200 ? res.statusCode : (def.status ?? 200)).json(result);
    });
    this.router[def.method](def.path, ...handlers);
  }

  private document(def: RouteDefinition<Schema, Schema, Schema>): void {
    const body = def.body ?? def.documentBody;
    const example = checkedExample(def, body);
    const success = String(example.status ?? def.status ?? 200);
    const responses: RouteConfig["responses"] = {};
    for (const [status, response] of Object.entries(def.responses)) {
      const shown = status === success ? { example: example.response } : {};
      responses[status] = response.schema
        ? { description: response.description, content: { "application/json": { schema: response.schema, ...shown } } }
        : { description: response.description, ...(status === success && { content: { [example.mediaType ?? "text/plain"]: { schema: { type: "string" }, ...shown } } }) };
    }
    const query = def.query ?? def.documentQuery;
    const validated = def.params || query || body;
    const errorsFor = { ...ERROR_RESPONSES[def.access], ...(validated ? ERROR_RESPONSES.validated : {}) };
    const errorSchema = def.access === "image_key" ? imageErrorBody : errorBody;
    for (const [status, description] of Object.entries(errorsFor)) {
      responses[status] ??= { description, content: { "application/json": { schema: errorSchema } } };
    }
    this.registry.registerPath({
      method: def.method,
      path: openApiPath(`${this.mountPath}${def.path}`),
      summary: def.summary,
      tags: [def.tag],
      security: SECURITY[def.access in SECURITY ? (def.access as keyof typeof SECURITY) : "user"],
      request: {
        // Path and query parameters are always objects; zod-to-openapi documents each member.
        params: def.params as z.ZodObject | undefined,
        query: query as z.ZodObject | undefined,
        body: body ? { content: { "application/json": { schema: body, example: example.request } } } : undefined,
      },
      responses,
    });
  }
}

/**
 * The route's worked example, checked against the route's own schemas: one
 * its schemas refuse stops the API at start-up rather than documenting what
 * does not exist.
 */
function checkedExample(def: RouteDefinition<Schema, Schema, Schema>, body: z.ZodType | undefined): OperationExample {
  const key = `${def.method.toUpperCase()} ${def.path}`;
  const { example } = def;
  // Toolshed tools are loaded at run time, where the type does not hold them to it.
  if (!example) throw new Error(`OpenAPI: no example for ${key} (the route's \`example\`)`);
  const success = example.status ?? def.status ?? 200;
  const schema = def.responses[success]?.schema;
  if (!def.responses[success]) throw new Error(`OpenAPI: the example of ${key} answers ${success}, which the route does not document`);
  const problems = [
    body && (example.request === undefined ? "no request example" : body.safeParse(example.request).error?.message),
    !body && example.request !== undefined ? "a request example for a route without a body" : undefined,
    schema?.safeParse(example.response).error?.message,
  ].filter(Boolean);
  if (problems.length) throw new Error(`OpenAPI: the example of ${key} does not fit its schemas: ${problems.join("; ")}`);
  return example;
}

import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import express, { type Request, type Response, type Router } from "express";
import type { OpenAPIRegistry } from "@asteasolutions/zod-to-openapi";
import { AppError } from "@mw/platform";
import type { Principal } from "@mw/domains/identity";
import { z } from "zod";
import { callerOf, resolvePrincipal } from "../auth/authenticate.ts";
import { asCaller } from "../auth/caller-reads.ts";
import { firstProblem } from "./validation.ts";
import type { AppContext } from "../context.ts";

export const ADMIN_AJAX_PATH = "/admin-ajax";

/** A file instead of JSON: a CSV export with `download=1`, a report or screenshot fetched by job id. */
export class FileAnswer {
  constructor(
    readonly filename: string,
    readonly contentType: string,
    readonly body: Buffer | string | Readable,
  ) {}
}

export interface ActionCall {
  principal: Principal;
  req: Request;
  res: Response;
}

/**
 * One admin AJAX action (spec 2, 4.4): its input besides `action` and
 * `nonce`, the schema of `data` in its success answer, a worked example
 * (checked against both at start-up, like every REST route's), and the work.
 */
export interface AdminAction<I extends z.ZodObject = z.ZodObject, D extends z.ZodType = z.ZodType> {
  name: string;
  /** The spec's group: Sites, Costs, Licenses, Vector index, Reports, Utilities, AI, Jobs. */
  group: string;
  summary: string;
  input: I;
  data: D;
  example: { input: z.input<I>; data: z.output<D> };
  handler: (input: z.output<I>, call: ActionCall) => Promise<z.output<D> | FileAnswer> | z.output<D> | FileAnswer;
}

/** Declares an action with its types checked against its schemas. */
export function adminAction<I extends z.ZodObject, D extends z.ZodType>(action: AdminAction<I, D>): AdminAction {
  return action as unknown as AdminAction;
}

const INSUFFICIENT = "Insufficient permissions";

/** The first problem of the input, as `field: what is wrong` (an absent required field says so). */
function invalidInput(error: z.ZodError, input: Record<string, unknown>): AppError {
  // "input" names the whole form: an action may have a field called "body".
  const problem = firstProblem(error, input, [], "input");
  return new AppError(400, "invalid_params", `${problem.field}: ${problem.message}`);
}

/**
 * The admin AJAX entry point (design section 4): `POST /admin-ajax` with
 * form or JSON fields `action` and `nonce`, dispatched by name through this
 * registry rather than by path. Every action needs `manage_options`; a cookie
 * session must send its nonce (the `nonce` field, `X-Nonce` or `_wpnonce`),
 * while an application password (a script over HTTP Basic) has no session to
 * forge and needs none. Answers `{success, data}` (errors are shaped by the
 * error handler, which knows this path).
 */
export class AdminAjax {
  private readonly actions = new Map<string, AdminAction>();

  constructor(private readonly ctx: Pick<AppContext, "config" | "prisma" | "redis" | "sessions" | "callerWrites">) {}

  register(actions: AdminAction[]): void {
    for (const action of actions) {
      if (this.actions.has(action.name)) throw new Error(`admin AJAX: action ${action.name} is declared twice`);
      const problems = [action.input.safeParse(action.example.input).error?.message, action.data.safeParse(action.example.data).error?.message].filter(Boolean);
      if (problems.length) throw new Error(`admin AJAX: the example of ${action.name} does not fit its schemas: ${problems.join("; ")}`);
      this.actions.set(action.name, action);
    }
  }

  router(bodyLimit: string): Router {
    const router = express.Router();
    router.post(ADMIN_AJAX_PATH, express.urlencoded({ extended: false, limit: bodyLimit, parameterLimit: 200 }), async (req, res) => {
      res.locals.route = ADMIN_AJAX_PATH;
      const principal = await resolvePrincipal(this.ctx, req, { requireNonce: true }).catch((error: unknown) => {
        if (error instanceof AppError && error.status === 403) return null;
        throw error;
      });
      if (!principal?.capabilities.includes("manage_options")) throw new AppError(403, "rest_forbidden", INSUFFICIENT);
      await asCaller(this.ctx, req, res, callerOf(principal), () => this.dispatch(principal, req, res));
    });
    return router;
  }

  private async dispatch(principal: Principal, req: Request, res: Response): Promise<void> {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const action = typeof body.action === "string" ? this.actions.get(body.action) : undefined;
    if (!action) throw new AppError(400, "unknown_action", "Unknown action");
    const { action: _name, nonce: _nonce, ...fields } = body;
    const parsed = action.input.safeParse(fields);
    if (!parsed.success) throw invalidInput(parsed.error, fields);
    const answer = await action.handler(parsed.data, { principal, req, res });
    if (answer instanceof FileAnswer) {
      res.set({ "Content-Type": answer.contentType, "Content-Disposition": `attachment; filename="${answer.filename.replace(/["\\\r\n]/g, "_")}"`, "Cache-Control": "private, no-store" });
      if (typeof answer.body === "string" || Buffer.isBuffer(answer.body)) res.send(answer.body);
      // A storage read that fails half-way cuts the response rather than leaving it hanging.
      else await pipeline(answer.body, res).catch(() => res.destroy());
      return;
    }
    res.json({ success: true, data: answer });
  }

  /** One OpenAPI operation: the body is one of the actions' inputs, told apart by `action`; each action has its own example. */
  document(registry: OpenAPIRegistry): void {
    const actions = [...this.actions.values()].sort((a, b) => a.group.localeCompare(b.group) || a.name.localeCompare(b.name));
    if (!actions.length) return;
    const inputs = actions.map((action) =>
      action.input.extend({ action: z.literal(action.name), nonce: z.string().optional().describe("the session nonce (cookie sessions)") }).describe(`${action.group}: ${action.summary}`),
    );
    const body = z.discriminatedUnion("action", inputs as unknown as [z.ZodObject, ...z.ZodObject[]]);
    const examples = Object.fromEntries(actions.map((action) => [action.name, { summary: `${action.group}: ${action.summary}`, value: { action: action.name, nonce: "<nonce>", ...action.example.input } }]));
    const answers = Object.fromEntries(actions.map((action) => [action.name, { summary: action.name, value: { success: true, data: action.example.data } }]));
    const failure = z.object({ success: z.literal(false), data: z.string() });
    registry.registerPath({
      method: "post",
      path: ADMIN_AJAX_PATH,
      summary: `Admin AJAX actions (manage_options): ${actions.map((action) => action.name).join(", ")}`,
      tags: ["admin-ajax"],
      security: [{ basicAuth: [] }, { sessionNonce: [] }],
      request: {
        body: {
          content: {
            "application/json": { schema: body, examples },
            "application/x-www-form-urlencoded": { schema: body, examples },
          },
        },
      },
      responses: {
        200: {
          description: "`{success: true, data}`; with `download=1`, an export or a job's file as an attachment",
          content: { "application/json": { schema: z.object({ success: z.literal(true), data: z.union(actions.map((action) => action.data) as [z.ZodType, z.ZodType, ...z.ZodType[]]) }), examples: answers } },
        },
        400: { description: "Unknown action, or an input field that is missing or wrong (`field: why`)", content: { "application/json": { schema: failure } } },
        403: { description: "Insufficient permissions: no session with its nonce or application password, or no manage_options", content: { "application/json": { schema: failure } } },
        404: { description: "The site, cost, license or job named does not exist", content: { "application/json": { schema: failure } } },
      },
    });
  }
}

import { AppError } from "@mw/platform";
import { OPTIONS } from "@mw/shared/options";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

const view = z.object({ success: z.literal(true), settings: z.record(z.string(), z.unknown()) });

/** Every option by name; `null` returns one to its default (unsets a secret). Checked by the option store, which answers invalid_params. */
const changes = z.object(Object.fromEntries(Object.entries(OPTIONS).map(([name, option]) => [name, option.schema.nullable().optional().describe(option.description)])));

/** The AI settings of spec 2, 2.2 for manage_options users; secrets are written here and read back only as `<name>_set`. */
export function aiSettingsRoutes(api: ApiRouter, ctx: AppContext): void {
  api.route({
    method: "get",
    path: "/ai/settings",
    summary: "The AI settings: values, and for the two secrets only whether they are set",
    tag: "ai",
    access: "manage_options",
    responses: { 200: { description: "The settings", schema: view } },
    handler: async () => ({ success: true as const, settings: await ctx.options.view() }),
  });

  api.route({
    method: "put",
    path: "/ai/settings",
    summary: "Change AI settings: only the names given change; null returns one to its default",
    tag: "ai",
    access: "manage_options",
    documentBody: changes,
    responses: { 200: { description: "The settings after the change", schema: view }, 400: { description: "invalid_params: an unknown option or a value its rules refuse; nothing changed" } },
    handler: async (_input, req) => {
      const body: unknown = req.body;
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw new AppError(400, "invalid_params", "The body must be a JSON object of option names to values.");
      await ctx.options.set(body as Record<string, unknown>);
      ctx.logger.info("AI settings changed", { options: Object.keys(body) });
      return { success: true as const, settings: await ctx.options.view() };
    },
  });
}

import { AppError } from "@mw/platform";
import { OPTIONS } from "@mw/domains/options";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

const settingsExample = {
  ai_api_key_set: true,
  ai_security_key_set: false,
  ai_model: "gemini-2.5-flash",
  ai_urgency_model: "gemini-2.5-flash",
  ai_assistant_model: "gemini-2.5-flash",
  ai_embedding_model: "gemini-embedding-001",
  ai_enabled_sources: ["ticket", "site", "wiki", "docs", "brand"],
  ai_max_context_tickets: 8,
  ai_chatbot_name: "Support Assistant",
  ai_vector_api_key_set: false,
  ai_vector_host: "",
  ai_rate_limit: 60,
  ai_rate_window: 60,
  ai_cache_ttl: 3600,
  ai_max_retries: 3,
  urgency_criteria: "Start near 20 for a routine request and adjust:\n- production down: +30 to +40\n...",
  urgency_max_per_run: 2,
  urgency_gate_seconds: 600,
};

const view = z.object({ success: z.literal(true), settings: z.record(z.string(), z.unknown()) });

/** Every option by name; `null` returns one to its default (unsets a secret). Checked by the option store, which answers invalid_params. */
const changes = z.object(Object.fromEntries(Object.entries(OPTIONS).map(([name, option]) => [name, option.schema.nullable().optional().describe(option.description)])));

/** The AI settings of spec 2, 2.2 for manage_options users; secrets are written here and read back only as `<name>_set`. */
export function aiSettingsRoutes(api: ApiRouter, ctx: Pick<AppContext, "logger" | "options">): void {
  api.route({
    method: "get",
    path: "/ai/settings",
    summary: "The AI settings: values, and for the two secrets only whether they are set",
    tag: "ai",
    access: "manage_options",
    responses: { 200: { description: "The settings", schema: view } },
    example: { response: { success: true, settings: settingsExample } },
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
    example: {
      request: { ai_model: "gemini-2.5-pro", ai_rate_limit: 120, ai_security_key: "<shared secret of 32 characters or more>" },
      response: { success: true, settings: { ...settingsExample, ai_model: "gemini-2.5-pro", ai_rate_limit: 120, ai_security_key_set: true } },
    },
    handler: async (_input, req) => {
      const body: unknown = req.body;
      if (typeof body !== "object" || body === null || Array.isArray(body)) throw new AppError(400, "invalid_params", "The body must be a JSON object of option names to values.");
      await ctx.options.set(body as Record<string, unknown>);
      ctx.logger.info("AI settings changed", { options: Object.keys(body) });
      return { success: true as const, settings: await ctx.options.view() };
    },
  });
}

import { URGENCY_LEVELS } from "@mw/shared/ai";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { readSpec2 } from "../../http/validation.ts";

/** Longest text an AI route takes (characters): far above any ticket or e-mail, well under the provider's input limit. */
export const AI_TEXT_LIMIT = 100_000;

const text = z.string().trim().min(1).max(AI_TEXT_LIMIT);
const engine = { engine: z.enum(["model", "rules"]), model: z.string().optional().describe("the model that answered, with engine model") };

const rewriteBody = z.object({ text, instructions: z.string().max(2000).optional() });
const urgencyBody = z.object({ subject: z.string().max(1000), body: z.string().max(AI_TEXT_LIMIT), client_name: z.string().max(200), is_vip: z.boolean() });
const parseBody = z.object({ email_body: text });

/** The AI service's three operations (spec 2, 4.1), under {REST_ROOT}/ai. */
export function aiRoutes(api: ApiRouter, ctx: AppContext): void {
  api.route({
    method: "post",
    path: "/ai/rewrite",
    summary: "Rewrite text, following optional instructions",
    tag: "ai",
    access: "ai_key_or_session",
    documentBody: rewriteBody,
    responses: { 200: { description: "The rewritten text", schema: z.object({ success: z.literal(true), rewritten_text: z.string(), ...engine }) } },
    handler: async (_input, req) => {
      const body = readSpec2(rewriteBody, req.body);
      return { success: true as const, ...(await ctx.ai.rewrite(body.text, body.instructions)) };
    },
  });

  api.route({
    method: "post",
    path: "/ai/ticket-urgency",
    summary: "Score a ticket's urgency (cached by subject and body)",
    tag: "ai",
    access: "ai_key",
    documentBody: urgencyBody,
    responses: {
      200: {
        description: "The urgency result of spec 2, 2.1",
        schema: z.object({
          success: z.literal(true),
          urgency: z.object({ score: z.number().int(), level: z.enum(URGENCY_LEVELS), summary: z.string(), reasoning: z.string(), timeline: z.string(), suggested_title: z.string() }),
          cached: z.boolean(),
          ...engine,
        }),
      },
    },
    handler: async (_input, req) => {
      const body = readSpec2(urgencyBody, req.body);
      return { success: true as const, ...(await ctx.ai.ticketUrgency(body)) };
    },
  });

  api.route({
    method: "post",
    path: "/ai/parse-email-reply",
    summary: "The newest reply of an e-mail thread, without quotes and signatures",
    tag: "ai",
    access: "ai_key",
    documentBody: parseBody,
    responses: { 200: { description: "The reply", schema: z.object({ success: z.literal(true), parsed_reply: z.string(), ...engine }) } },
    handler: async (_input, req) => {
      const body = readSpec2(parseBody, req.body);
      return { success: true as const, ...(await ctx.ai.parseEmailReply(body.email_body)) };
    },
  });
}

import { URGENCY_LEVELS } from "@mw/domains/urgency";
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
export function aiRoutes(api: ApiRouter, ctx: Pick<AppContext, "ai">): void {
  api.route({
    method: "post",
    path: "/ai/rewrite",
    summary: "Rewrite text, following optional instructions",
    tag: "ai",
    access: "ai_key_or_session",
    documentBody: rewriteBody,
    responses: { 200: { description: "The rewritten text", schema: z.object({ success: z.literal(true), rewritten_text: z.string(), ...engine }) } },
    example: {
      request: { text: "hi, we fixed the checkout , it should work now.", instructions: "Make it friendly and professional." },
      response: { success: true, rewritten_text: "Hello! We have fixed the checkout, and it should be working again now.", engine: "model", model: "gemini-2.5-flash" },
    },
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
    example: {
      request: { subject: "Checkout down", body: "Since 9am no customer can pay: checkout shows a 500 error. We are losing orders.", client_name: "ACME", is_vip: true },
      response: {
        success: true,
        urgency: {
          score: 95,
          level: "CRITICAL",
          summary: "Checkout fails with a 500 error for every customer since 9am.",
          reasoning: "Production down +35, revenue impact +25, multiple users +15. Modifiers: VIP client +10.",
          timeline: "Respond within 1 hour",
          suggested_title: "Checkout returns 500 for all customers",
        },
        cached: false,
        engine: "model",
        model: "gemini-2.5-flash",
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
    example: {
      request: { email_body: "Thanks, that fixed it.\n\nOn Tue, Nov 17, 2026 at 10:02 AM Support <support@example.com> wrote:\n> Please clear your cache." },
      response: { success: true, parsed_reply: "Thanks, that fixed it.", engine: "rules" },
    },
    handler: async (_input, req) => {
      const body = readSpec2(parseBody, req.body);
      return { success: true as const, ...(await ctx.ai.parseEmailReply(body.email_body)) };
    },
  });
}

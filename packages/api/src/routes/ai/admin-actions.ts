import { URGENCY_LEVELS } from "@mw/domains/urgency";
import { formBool } from "@mw/domains/managed-sites";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import { adminAction, type AdminAction } from "../../http/admin-ajax.ts";
import { AI_TEXT_LIMIT } from "./ai.ts";

const engine = { engine: z.enum(["model", "rules"]), model: z.string().optional() };
const urgency = z.object({
  score: z.number().int(),
  level: z.enum(URGENCY_LEVELS),
  summary: z.string(),
  reasoning: z.string(),
  timeline: z.string(),
  suggested_title: z.string(),
});

/** Spec 2, 4.4 AI group: the dashboard's way into the AI service (design 10.8: answered in the request, with its timeouts). */
export function aiActions(ctx: Pick<AppContext, "ai">): AdminAction[] {
  return [
    adminAction({
      name: "test_ticket_urgency",
      group: "AI",
      summary: "Score a sample ticket as the urgency endpoint would; bypass_cache=1 asks the model again",
      input: z.object({
        subject: z.string().trim().min(1).max(1000),
        body: z.string().trim().min(1).max(AI_TEXT_LIMIT),
        client_name: z.string().trim().max(200).default(""),
        is_vip: formBool.default(false),
        bypass_cache: formBool.default(false),
      }),
      data: z.object({ urgency, cached: z.boolean(), ...engine }),
      example: {
        input: { subject: "Checkout is down", body: "No customer can pay since 9:00.", client_name: "ACME", is_vip: true },
        data: {
          urgency: { score: 88, level: "CRITICAL", summary: "Checkout down for all customers", reasoning: "production down (+35), revenue impact (+25), VIP (+10)", timeline: "Within 1 hour", suggested_title: "Checkout down: customers cannot pay" },
          cached: false,
          engine: "model",
          model: "gemini-2.5-flash",
        },
      },
      handler: ({ bypass_cache, ...input }) => ctx.ai.ticketUrgency(input, { bypassCache: bypass_cache }),
    }),
    adminAction({
      name: "ai_rewrite",
      group: "AI",
      summary: "Rewrite text, following optional instructions",
      input: z.object({ text: z.string().trim().min(1).max(AI_TEXT_LIMIT), instructions: z.string().max(2000).optional() }),
      data: z.object({ rewritten_text: z.string(), ...engine }),
      example: { input: { text: "pls fix the checkout asap its broken", instructions: "polite, one sentence" }, data: { rewritten_text: "Could you please fix the checkout as soon as possible? It is broken.", engine: "model", model: "gemini-2.5-flash" } },
      handler: (input) => ctx.ai.rewrite(input.text, input.instructions),
    }),
    adminAction({
      name: "ai_clear_cache",
      group: "AI",
      summary: "Forget every cached urgency result (every API process within 2 s)",
      input: z.object({}),
      data: z.object({ cleared: z.number().int() }),
      example: { input: {}, data: { cleared: 42 } },
      handler: async () => ({ cleared: await ctx.ai.clearUrgencyCache() }),
    }),
  ];
}

import type { Response } from "express";
import { AppError, errors } from "@mw/platform";
import { AI_SERVICE_VERSION, EMBEDDING_DIMENSIONS } from "@mw/domains/ai";
import {
  acquireChatSlot,
  answerStream,
  conversationWithMessages,
  deleteConversation,
  enabledSources,
  lastRun,
  listConversations,
  prepareChat,
  recordAnswer,
  requestTicketReembed,
  SOURCES,
  startConversation,
} from "@mw/domains/knowledge";
import { z } from "zod";
import { staffIdOf } from "../../auth/authenticate.ts";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";
import { knowledgeOf } from "./knowledge-of.ts";

const ok = <S extends z.ZodType>(data: S) => z.object({ success: z.literal(true), data });
const conversation = z.object({ id: z.number().int(), title: z.string().nullable(), created: z.string(), updated: z.string() });
const message = z.object({ id: z.number().int(), role: z.enum(["user", "assistant"]), content: z.string(), cited_tickets: z.array(z.string()), created: z.string() });
const chatBody = z.object({
  message: z.string().trim().min(1).max(4000),
  ticket_number: z.coerce.string().trim().min(1).max(32).optional().describe("the ticket the agent is viewing: 'this ticket' means it"),
  agent_name: z.string().trim().max(100).optional(),
  conversation_id: z.number().int().positive().optional().describe("continue one of your conversations; without it a new one is created"),
});
const sourceCounts = z.object(Object.fromEntries(SOURCES.map((source) => [source, z.number().int()])) as Record<(typeof SOURCES)[number], z.ZodNumber>);

export const assistantStatus = z.object({
  version: z.literal(AI_SERVICE_VERSION).describe("the AI service's version (spec 2, 9)"),
  chatbot_name: z.string(),
  provider: z.object({ engine: z.enum(["model", "rules"]), assistant_model: z.string().nullable(), embedding_model: z.string(), dimension: z.number().int() }),
  index: z.object({ kind: z.enum(["pinecone", "embedded"]), namespace: z.string(), host: z.string().nullable() }),
  enabled_sources: z.array(z.enum(SOURCES)),
  counts: sourceCounts.describe("records embedded by the current model, per source"),
  stale_vectors: z.number().int().describe("records of another model or dimension, waiting for the re-embed"),
  last_embedding_run: z
    .object({ kind: z.string(), started_at: z.string(), finished_at: z.string(), embedded: z.number().int(), unchanged: z.number().int(), removed: z.number().int().optional() })
    .nullable(),
});

const CONVERSATION_EXAMPLE = { id: 31, title: "Checkout failing after plugin update", created: "2026-11-25T10:00:00.000Z", updated: "2026-11-25T10:00:04.000Z" };

const iso = (date: Date) => date.toISOString();
const conversationView = (row: { id: number; title: string | null; created: Date; updated: Date }) => ({ id: row.id, title: row.title, created: iso(row.created), updated: iso(row.updated) });

function sse(res: Response, event: Record<string, unknown>): void {
  res.write(`data: ${JSON.stringify(event)}\n\n`);
}

/** Spec 2, 4.6 under the staff AJAX root: the assistant's chat stream, conversations, status and re-embedding. */
export function assistantRoutes(api: ApiRouter, ctx: Pick<AppContext, "ai" | "config" | "logger" | "options" | "prisma" | "queues" | "redis">): void {
  api.route({
    method: "post",
    path: "/ai-assistant/chat",
    summary: "Ask the assistant: server-sent events `{type: token, content}`, then `{type: done, conversation_id, message_id, cited_tickets}` or `{type: error, message}`",
    tag: "ai-assistant",
    access: "staff_or_manage_options",
    body: chatBody,
    responses: {
      200: { description: "text/event-stream of `data: {json}` events; a failure after the first event ends with an error event and stores nothing" },
      404: { description: "The conversation is not one of yours" },
      429: { description: "rate_limited: your other answers are still streaming (per-staff limit)" },
    },
    example: {
      request: { message: "Why does checkout fail on this ticket?", ticket_number: "004512", agent_name: "Sam Staff" },
      mediaType: "text/event-stream",
      response: 'data: {"type":"token","content":"Checkout fails because "}\n\ndata: {"type":"token","content":"the payment plugin was updated (#004498)."}\n\ndata: {"type":"done","conversation_id":31,"message_id":208,"cited_tickets":["004498"]}\n\n',
    },
    handler: async ({ body }, _req, res) => {
      const staffId = staffIdOf(res);
      const release = await acquireChatSlot(ctx, staffId);
      const cancel = new AbortController();
      res.on("close", () => {
        if (!res.writableFinished) cancel.abort();
      });
      try {
        const request = { staffId, ...body };
        const prepared = await prepareChat(ctx, knowledgeOf(ctx), request);
        res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", connection: "keep-alive", "x-accel-buffering": "no" });
        res.flushHeaders();
        let answer = "";
        try {
          for await (const piece of answerStream(ctx, prepared, cancel.signal)) {
            answer += piece;
            sse(res, { type: "token", content: piece });
          }
          if (cancel.signal.aborted) {
            ctx.logger.info("assistant answer cancelled: the client went away", { staff_id: staffId });
            return undefined;
          }
          const recorded = await recordAnswer(ctx, request, answer);
          sse(res, { type: "done", ...recorded });
        } catch (error) {
          if (cancel.signal.aborted) return undefined;
          ctx.logger.warn("assistant answer failed", { staff_id: staffId, error: (error as Error).message });
          sse(res, { type: "error", message: error instanceof AppError ? error.message : "The answer failed; please ask again." });
        }
        res.end();
        return undefined;
      } finally {
        await release();
      }
    },
  });

  api.route({
    method: "get",
    path: "/ai-assistant/conversations",
    summary: "Your conversations, most recently active first",
    tag: "ai-assistant",
    access: "staff_or_manage_options",
    responses: { 200: { description: "At most 100", schema: ok(z.object({ conversations: z.array(conversation) })) } },
    example: { response: { success: true, data: { conversations: [CONVERSATION_EXAMPLE] } } },
    handler: async (_input, _req, res) => {
      const rows = await listConversations(ctx, staffIdOf(res));
      return { success: true as const, data: { conversations: rows.map(conversationView) } };
    },
  });

  api.route({
    method: "post",
    path: "/ai-assistant/conversations",
    summary: "Start a conversation (optionally titled; otherwise its first message titles it)",
    tag: "ai-assistant",
    access: "staff_or_manage_options",
    body: z.object({ title: z.string().trim().min(1).max(255).optional() }),
    status: 201,
    responses: { 201: { description: "The conversation", schema: ok(conversation) } },
    example: { request: { title: "Checkout incidents" }, response: { success: true, data: { ...CONVERSATION_EXAMPLE, title: "Checkout incidents" } } },
    handler: async ({ body }, _req, res) => ({ success: true as const, data: conversationView(await startConversation(ctx, staffIdOf(res), body.title ?? null)) }),
  });

  api.route({
    method: "get",
    path: "/ai-assistant/conversations/:id",
    summary: "One of your conversations with its messages",
    tag: "ai-assistant",
    access: "staff_or_manage_options",
    params: z.object({ id: z.coerce.number().int().positive() }),
    responses: { 200: { description: "The conversation and its messages, oldest first", schema: ok(conversation.extend({ messages: z.array(message) })) }, 404: { description: "Not one of your conversations" } },
    example: {
      response: {
        success: true,
        data: {
          ...CONVERSATION_EXAMPLE,
          messages: [
            { id: 207, role: "user", content: "Why does checkout fail on this ticket?", cited_tickets: [], created: "2026-11-25T10:00:00.000Z" },
            { id: 208, role: "assistant", content: "Checkout fails because the payment plugin was updated (#004498).", cited_tickets: ["004498"], created: "2026-11-25T10:00:04.000Z" },
          ],
        },
      },
    },
    handler: async ({ params }, _req, res) => {
      const row = await conversationWithMessages(ctx, staffIdOf(res), params.id);
      if (!row) throw errors.notFound("Conversation not found.");
      const messages = row.messages.map((item) => ({ id: item.id, role: item.role as "user" | "assistant", content: item.content, cited_tickets: (item.cited_tickets as string[] | null) ?? [], created: iso(item.created) }));
      return { success: true as const, data: { ...conversationView(row), messages } };
    },
  });

  api.route({
    method: "delete",
    path: "/ai-assistant/conversations/:id",
    summary: "Delete one of your conversations and its messages",
    tag: "ai-assistant",
    access: "staff_or_manage_options",
    params: z.object({ id: z.coerce.number().int().positive() }),
    responses: { 200: { description: "Deleted", schema: ok(z.object({ deleted: z.literal(true), id: z.number().int() })) }, 404: { description: "Not one of your conversations" } },
    example: { response: { success: true, data: { deleted: true, id: 31 } } },
    handler: async ({ params }, _req, res) => {
      if (!(await deleteConversation(ctx, staffIdOf(res), params.id))) throw errors.notFound("Conversation not found.");
      return { success: true as const, data: { deleted: true as const, id: params.id } };
    },
  });

  api.route({
    method: "get",
    path: "/ai-assistant/status",
    summary: "The assistant's status: AI service version, provider, index, records per source, the last embedding run",
    tag: "ai-assistant",
    access: "staff_or_manage_options",
    responses: { 200: { description: "Status", schema: ok(assistantStatus) } },
    example: {
      response: {
        success: true,
        data: {
          version: "1.0.0",
          chatbot_name: "Support Assistant",
          provider: { engine: "model", assistant_model: "gemini-2.5-flash", embedding_model: "gemini-embedding-001", dimension: 768 },
          index: { kind: "embedded", namespace: "", host: null },
          enabled_sources: ["ticket", "site", "wiki", "docs", "brand"],
          counts: { ticket: 1480, site: 30, wiki: 6, docs: 3, brand: 1 },
          stale_vectors: 0,
          last_embedding_run: { kind: "embeddings", started_at: "2026-11-25T10:00:00.000Z", finished_at: "2026-11-25T10:00:03.000Z", embedded: 4, unchanged: 0 },
        },
      },
    },
    handler: async () => {
      const knowledge = knowledgeOf(ctx);
      const [hasProvider, embeddingModel, index, pinecone, counts, stale, run, sources, chatbot, assistantModel] = await Promise.all([
        ctx.ai.hasProvider(),
        ctx.ai.embeddingModel(),
        knowledge.index(),
        knowledge.pineconeSettings(),
        knowledge.counts(),
        knowledge.staleCount(),
        lastRun(ctx.redis, ctx.config.QUEUE_PREFIX),
        enabledSources(ctx.options),
        ctx.options.get("ai_chatbot_name"),
        ctx.options.get("ai_assistant_model"),
      ]);
      return {
        success: true as const,
        data: {
          version: AI_SERVICE_VERSION,
          chatbot_name: chatbot,
          provider: { engine: hasProvider ? ("model" as const) : ("rules" as const), assistant_model: hasProvider ? assistantModel : null, embedding_model: embeddingModel, dimension: EMBEDDING_DIMENSIONS },
          index: { kind: index.kind, namespace: index.namespace, host: pinecone?.host ?? null },
          enabled_sources: sources,
          counts,
          stale_vectors: stale,
          last_embedding_run: run,
        },
      };
    },
  });

  api.route({
    method: "post",
    path: "/ai-assistant/reembed",
    summary: "Embed a ticket again now (queued), whatever its content hash says; skipped, with why, while a re-embed of it waits or runs",
    tag: "ai-assistant",
    access: "staff_or_manage_options",
    body: z.object({ ticket_number: z.coerce.string().trim().min(1).max(32) }),
    responses: {
      200: {
        description: "The job that re-embeds the ticket, for get_job; `queued` and `skipped` as every bulk trigger answers (this one acts on one ticket)",
        schema: ok(
          z.object({
            job_id: z.string(),
            queued: z.array(z.object({ ticket_number: z.string(), job_id: z.string() })),
            skipped: z.array(z.object({ ticket_number: z.string(), reason: z.string() })).describe("the ticket, when a re-embed of it is waiting or running (job_id names that job)"),
          }),
        ),
      },
      404: { description: "No ticket with that number in the mirror" },
    },
    example: {
      request: { ticket_number: "004512" },
      response: { success: true, data: { job_id: "knowledge:reembed-ticket.123.1764064800000", queued: [{ ticket_number: "004512", job_id: "knowledge:reembed-ticket.123.1764064800000" }], skipped: [] } },
    },
    handler: async ({ body }) => {
      const requested = await requestTicketReembed(ctx, body.ticket_number);
      if (requested.outcome === "no_ticket") throw errors.notFound(`Ticket ${body.ticket_number} not found.`);
      return { success: true as const, data: { job_id: requested.jobId, queued: requested.queued, skipped: requested.skipped } };
    },
  });
}

import express, { type RequestHandler } from "express";
import { rateLimit } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { AppError, scriptSafeSendCommand } from "@mw/platform";
import { ACQUIRER_SIGNATURE_HEADER, receiveAcquirerWebhook } from "@mw/domains/disputes";
import { z } from "zod";
import type { AppContext } from "../../context.ts";
import type { ApiRouter } from "../../http/api-router.ts";

export const ACQUIRER_WEBHOOK_PATH = "/webhooks/acquirer";

/** The acquirer's dispute record (spec 1, 2.6); documented only: any JSON object is stored as received. */
const acquirerPayload = z.object({
  event_type: z.string().optional().describe("e.g. dispute.created"),
  timestamp: z.string().optional().describe("ISO-8601 UTC"),
  api_response: z.string().optional().describe("JSON-encoded object with case_id / case_number"),
  request_payload: z.string().optional().describe("JSON-encoded dispute record"),
  remote_addr: z.string().optional(),
  user_agent: z.string().optional(),
  account_id: z.string().optional().describe("acquirer merchant id"),
});

/**
 * The raw body of every webhook, whatever its content type: its SHA-256 is
 * stored and signatures are computed over it. Mount before the JSON parser.
 */
export function rawWebhookBody(limit: string): RequestHandler {
  return express.raw({ type: () => true, limit });
}

/**
 * Per-IP limit (WEBHOOK_RATE_LIMIT_PER_MINUTE, generous by default; 0 turns
 * it off), counted in Redis across API processes. The store's scripts go
 * through scriptSafeSendCommand: its own SCRIPT LOAD would reach one cluster
 * node and its EVALSHA another.
 */
function perIpLimit(ctx: Pick<AppContext, "config" | "logger" | "redis">): RequestHandler | null {
  const perMinute = ctx.config.WEBHOOK_RATE_LIMIT_PER_MINUTE;
  if (perMinute === 0) return null;
  const sendCommand = scriptSafeSendCommand(ctx.redis);
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: new RedisStore({
      prefix: `${ctx.config.QUEUE_PREFIX}:ratelimit:acquirer:`,
      sendCommand: (command: string, ...args: string[]) => sendCommand(command, ...args) as Promise<RedisReply>,
    }),
    handler: (_req, _res, next) => next(new AppError(429, "rate_limited", "Too many webhook deliveries from this address; retry later.")),
    // A Redis that cannot count must not cost a dispute: the delivery is stored and left to the sweeper, as before the limit.
    passOnStoreError: true,
    logger: {
      error: (error, message) => ctx.logger.warn("acquirer webhook rate limit not counted", { error, message }),
      warn: (error, message) => ctx.logger.warn("acquirer webhook rate limit", { error, message }),
    },
  });
}

export function acquirerWebhookRoutes(api: ApiRouter, ctx: Pick<AppContext, "config" | "logger" | "prisma" | "queues" | "redis" | "sql">): void {
  const limiter = perIpLimit(ctx);
  if (limiter) api.router.post(ACQUIRER_WEBHOOK_PATH, limiter);
  api.route({
    method: "post",
    path: ACQUIRER_WEBHOOK_PATH,
    summary: "Receive an acquirer dispute event (public, or signed when ACQUIRER_SIGNING_KEY is set); matching happens later in the disputes queue",
    tag: "disputes",
    access: "public",
    documentBody: acquirerPayload,
    responses: {
      202: {
        description: "Stored and queued",
        schema: z.object({ success: z.literal(true), message: z.string(), webhook_id: z.number().int() }),
      },
      200: { description: "This event was already received; nothing stored again", schema: z.object({ success: z.literal(true), message: z.string() }) },
      400: { description: "empty_payload or invalid_json; rest_invalid_param naming each member longer than its column (api_response.case_id, event_type, ...)" },
      401: { description: "rest_forbidden: ACQUIRER_SIGNING_KEY is set and the Webhook-Signature header is missing or wrong; nothing stored" },
      429: { description: "rate_limited: more than WEBHOOK_RATE_LIMIT_PER_MINUTE deliveries from this address in a minute" },
      500: { description: "db_error" },
      503: { description: "queue_unavailable: stored, not yet queued; retrying is safe" },
    },
    example: {
      request: {
        event_type: "dispute.created",
        timestamp: "2026-11-20T10:15:00Z",
        account_id: "12345",
        api_response: JSON.stringify({ case_id: "CB-2026-0042", case_number: "N-0042" }),
        request_payload: JSON.stringify({ mid: "0012345", auth_code: "A1B2C3", transaction_date: "2026-11-02", amount: "49.90", card_number: "411111******1111", reason_code: "10.4" }),
      },
      response: { success: true, message: "Webhook received and queued for processing.", webhook_id: 1 },
      status: 202,
    },
    handler: async (_input, req, res) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const delivery = await receiveAcquirerWebhook(ctx, raw, req.ip, req.get(ACQUIRER_SIGNATURE_HEADER));
      if (delivery.outcome === "already_received") return { success: true as const, message: "Event already received." };
      res.status(202);
      return { success: true as const, message: "Webhook received and queued for processing.", webhook_id: delivery.webhookId };
    },
  });
}

import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import type { Logger } from "@mw/platform/logging";
import { type RedisClient, unlinkMatching } from "@mw/platform/redis";
import { sha256Hex } from "@mw/platform/crypto";
import { LRUCache } from "lru-cache";
import { z } from "zod";
import type { OptionStore } from "../options/index.ts";
import { GeminiClient, GeminiError, type GenerateRequest } from "@mw/providers/gemini";
import { parseEmailReply } from "./email-reply.ts";
import { EMBEDDING_DIMENSIONS, hashingEmbedding, LOCAL_EMBEDDING_MODEL, normalise } from "./hashing-embedding.ts";
import { callModel, streamModel, type CallPolicy } from "./model-calls.ts";
import { rewriteByRules } from "./rewrite-rules.ts";
import { baseUrgency, type BaseUrgency, finalUrgency, RESPONSE_TIMES, scoreByRules, type UrgencyResult } from "../urgency/engine/index.ts";
import { noteByRules, wordCount } from "./note-rules.ts";
import { ANALYSIS_JSON_SCHEMA, analysisAnswer, analyseByRules, analysisPrompt, finalAnalysis, urgencyChain, type AnalysisAnswer, type TicketAnalysis, type TicketAnalysisInput } from "./ticket-analysis.ts";

/**
 * How long a process keeps an urgency result it read from Redis: the same
 * ticket is scored many times a minute, and a cleared cache is seen by every
 * process within this, as option changes are.
 */
export const LOCAL_URGENCY_MS = 2_000;

/** Spec 2, 9: the AI service is version 1.0.0 (issue 20, item 9: shown by the assistant status and the OpenAPI document). */
export const AI_SERVICE_VERSION = "1.0.0";

type CachedUrgency = { base: BaseUrgency } & Engine;

/** Which engine answered (design 10.2): a provider model, or the built-in rules when no key is set. */
type Engine = { engine: "model"; model: string } | { engine: "rules" };

const URGENCY_JSON_SCHEMA = {
  type: "object",
  properties: {
    score: { type: "integer", minimum: 0, maximum: 100 },
    workaround_available: { type: "boolean" },
    summary: { type: "string" },
    reasoning: { type: "string" },
    suggested_title: { type: "string" },
  },
  required: ["score", "workaround_available", "summary", "reasoning", "suggested_title"],
};

const URGENCY_SYSTEM = [
  "You score the urgency of a support ticket from 0 to 100.",
  "Start near 20 for a routine request and add or subtract for these factors (spec): production down +30 to +40; revenue impact +20 to +30; data loss risk +25 to +35; security breach +30 to +40; multiple users affected +10 to +20; enhancement request -20.",
  "Do not apply the VIP or workaround modifiers yourself: report whether a workaround is available in workaround_available.",
  `Levels: 75-100 CRITICAL (${RESPONSE_TIMES.CRITICAL}), 50-74 HIGH (${RESPONSE_TIMES.HIGH}), 25-49 MEDIUM (${RESPONSE_TIMES.MEDIUM}), 0-24 LOW (${RESPONSE_TIMES.LOW}).`,
  "Answer JSON only: score, workaround_available, a one-sentence summary, reasoning naming the factors found, and a clear suggested_title under 80 characters.",
].join("\n");

/**
 * The AI operations of spec 2, 4.1, for HTTP routes and jobs alike. With a
 * provider key (AI_API_KEY or the `ai_api_key` option) they ask the model
 * with retries and fallback; without one, the built-in engines answer.
 */
export class AiService {
  constructor(
    private readonly deps: { config: Pick<Config, "AI_BASE_URL" | "AI_API_KEY" | "AI_TIMEOUT_MS" | "AI_RETRY_BASE_MS" | "QUEUE_PREFIX">; options: OptionStore; redis: RedisClient; logger: Logger },
  ) {}

  /** Results last read from or written to Redis, by cache key. */
  private readonly local = new LRUCache<string, CachedUrgency>({ max: 10_000, ttl: LOCAL_URGENCY_MS });

  /** One client per key: a key changed through the options gets a new one. */
  private client?: { apiKey: string; gemini: GeminiClient };

  private async provider(): Promise<GeminiClient | null> {
    const apiKey = this.deps.config.AI_API_KEY ?? (await this.deps.options.get("ai_api_key"));
    if (!apiKey) return null;
    if (this.client?.apiKey !== apiKey) {
      this.client = { apiKey, gemini: new GeminiClient({ baseUrl: this.deps.config.AI_BASE_URL, apiKey, timeoutMs: this.deps.config.AI_TIMEOUT_MS }) };
    }
    return this.client.gemini;
  }

  private async policy(): Promise<CallPolicy> {
    return { attempts: await this.deps.options.get("ai_max_retries"), baseDelayMs: this.deps.config.AI_RETRY_BASE_MS };
  }

  async rewrite(text: string, instructions: string | undefined): Promise<{ rewritten_text: string } & Engine> {
    const client = await this.provider();
    if (!client) return { rewritten_text: rewriteByRules(text), engine: "rules" };
    const model = await this.deps.options.get("ai_model");
    const answer = await callModel(
      client,
      model,
      {
        system: "Rewrite the user's text. Keep its meaning, language and facts. Answer with the rewritten text only, no preamble or quotes.",
        prompt: instructions ? `Instructions: ${instructions}\n\nText:\n${text}` : `Text:\n${text}`,
      },
      z.string().min(1),
      await this.policy(),
      this.deps.logger,
    );
    return { rewritten_text: answer.value.trim(), engine: "model", model: answer.model };
  }

  async parseEmailReply(emailBody: string): Promise<{ parsed_reply: string } & Engine> {
    // The built-in parser runs first in both modes: the model sees only what it left.
    const stripped = parseEmailReply(emailBody);
    const client = await this.provider();
    if (!client || !stripped) return { parsed_reply: stripped, engine: "rules" };
    const model = await this.deps.options.get("ai_model");
    const answer = await callModel(
      client,
      model,
      {
        system: "This is the newest part of an e-mail thread, with quoted history removed. Remove anything that is still quoted text, a signature, a disclaimer or a footer. Answer with the reply text only, unchanged otherwise.",
        prompt: stripped,
      },
      z.string(),
      await this.policy(),
      this.deps.logger,
    );
    return { parsed_reply: answer.value.trim(), engine: "model", model: answer.model };
  }

  /**
   * Spec 2, 4.5: a time-entry note summarised into a description of 2 to 8
   * words by the assistant model; an answer of another length counts as a
   * failed attempt. `engine: "rules"` without a provider key or when asked.
   */
  async optimizeNote(text: string, options: { rules?: boolean } = {}): Promise<{ note: string } & Engine> {
    const client = options.rules ? null : await this.provider();
    if (!client) return { note: noteByRules(text), engine: "rules" };
    const note = z.object({ note: z.string().trim().refine((value) => wordCount(value) >= 2 && wordCount(value) <= 8, "must be 2 to 8 words") });
    const answer = await callModel(
      client,
      await this.deps.options.get("ai_assistant_model"),
      {
        system: "Summarise a support engineer's work note into a time-entry description of 2 to 8 words, in the note's language, no trailing full stop. Answer JSON: {\"note\": \"...\"}.",
        prompt: text,
        jsonSchema: { type: "object", properties: { note: { type: "string" } }, required: ["note"] },
      },
      note,
      await this.policy(),
      this.deps.logger,
    );
    return { note: answer.value.note.replace(/\s+/g, " "), engine: "model", model: answer.model };
  }

  /** Whether a provider key is set: without one the built-in engines answer (design 10.2). */
  async hasProvider(): Promise<boolean> {
    return (await this.provider()) !== null;
  }

  /** The model whose vectors the knowledge index reads now: the embedding option with a key, the local hashing embedding without. */
  async embeddingModel(): Promise<string> {
    return (await this.provider()) ? await this.deps.options.get("ai_embedding_model") : LOCAL_EMBEDDING_MODEL;
  }

  /**
   * Embeddings of `texts`, EMBEDDING_DIMENSIONS long and L2-normalised, by
   * `model` (embeddingModel()): Gemini's batchEmbedContents in batches of
   * 100 with the retry rules, or the local hashing embedding.
   */
  async embed(model: string, texts: string[], taskType: "RETRIEVAL_QUERY" | "RETRIEVAL_DOCUMENT"): Promise<Float32Array[]> {
    if (model === LOCAL_EMBEDDING_MODEL) return texts.map(hashingEmbedding);
    const client = await this.provider();
    if (!client) throw new AppError(500, "ai_error", `No AI provider key is set to embed with ${model}.`);
    const policy = await this.policy();
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += 100) {
      const batch = texts.slice(start, start + 100);
      for (let attempt = 1; ; attempt += 1) {
        try {
          const values = await client.embed(model, batch, { dimensions: EMBEDDING_DIMENSIONS, taskType });
          vectors.push(...values.map((value) => normalise(Float32Array.from(value))));
          break;
        } catch (error) {
          if (!(error instanceof GeminiError)) throw error;
          this.deps.logger.warn("ai embedding failed", { model, attempt, kind: error.kind, error: error.message });
          if (!error.retryable || attempt >= policy.attempts) throw new AppError(500, "ai_error", `AI embedding failed: ${error.message}`);
          await new Promise((resolve) => setTimeout(resolve, policy.baseDelayMs * 2 ** (attempt - 1)));
        }
      }
    }
    return vectors;
  }

  /** A structured answer of the assistant model (`ai_assistant_model`: titles, organisation analysis), with retries and fallback. */
  async askAssistant<S extends z.ZodType>(request: GenerateRequest, schema: S): Promise<{ value: z.output<S>; model: string }> {
    const client = await this.provider();
    if (!client) throw new AppError(500, "ai_error", "No AI provider key is set.");
    return callModel(client, await this.deps.options.get("ai_assistant_model"), request, schema, await this.policy(), this.deps.logger);
  }

  /**
   * The assistant model's answer as it is written (chat, design 10.5), retried
   * and falling back only before its first text; `signal` cancels the call.
   * Null without a provider key.
   */
  async streamAssistant(request: GenerateRequest, signal: AbortSignal): Promise<AsyncGenerator<string, string> | null> {
    const client = await this.provider();
    if (!client) return null;
    return streamModel(client, await this.deps.options.get("ai_assistant_model"), request, await this.policy(), this.deps.logger, signal);
  }

  private cacheKey(subject: string, body: string): string {
    return `${this.deps.config.QUEUE_PREFIX}:ai:urgency:${sha256Hex(`${subject}\u0000${body}`)}`;
  }

  /**
   * Spec 2, 4.1 rules 1-3: the base result is cached by subject and body for
   * `ai_cache_ttl` (design 10.8: the VIP and workaround modifiers apply after
   * the cache, so a VIP flag never reads a non-VIP score).
   */
  async ticketUrgency(input: { subject: string; body: string; is_vip: boolean; client_name: string }, options: { bypassCache?: boolean } = {}): Promise<{ urgency: UrgencyResult; cached: boolean } & Engine> {
    const ttl = await this.deps.options.get("ai_cache_ttl");
    const key = this.cacheKey(input.subject, input.body);
    if (!options.bypassCache && ttl > 0) {
      const hit = this.local.get(key) ?? (await this.readShared(key));
      if (hit) {
        const { base, ...engine } = hit;
        return { urgency: finalUrgency(base, input.is_vip), cached: true, ...engine };
      }
    }
    const client = await this.provider();
    let base: BaseUrgency;
    let engine: Engine;
    // Design 10.8: client text is stripped of quoted history before it is scored, by either engine.
    const message = parseEmailReply(input.body);
    if (!client) {
      base = scoreByRules(input.subject, message);
      engine = { engine: "rules" };
    } else {
      const model = await this.deps.options.get("ai_urgency_model");
      const answer = await callModel(
        client,
        model,
        { system: URGENCY_SYSTEM, prompt: `Client: ${input.client_name}\nSubject: ${input.subject}\n\n${message}`, jsonSchema: URGENCY_JSON_SCHEMA },
        baseUrgency,
        await this.policy(),
        this.deps.logger,
      );
      base = answer.value;
      engine = { engine: "model", model: answer.model };
    }
    if (ttl > 0) {
      const entry: CachedUrgency = { base, ...engine };
      await this.deps.redis.set(key, JSON.stringify(entry), "EX", ttl);
      this.local.set(key, entry, { ttl: Math.min(LOCAL_URGENCY_MS, ttl * 1000) });
    }
    return { urgency: finalUrgency(base, input.is_vip), cached: false, ...engine };
  }

  private async readShared(key: string): Promise<CachedUrgency | undefined> {
    const [stored, ttlMs] = await Promise.all([this.deps.redis.get(key), this.deps.redis.pttl(key)]);
    if (!stored) return undefined;
    const entry = JSON.parse(stored) as CachedUrgency;
    // Never kept here past its expiry in Redis.
    if (ttlMs > 0) this.local.set(key, entry, { ttl: Math.min(LOCAL_URGENCY_MS, ttlMs) });
    return entry;
  }

  /**
   * Spec 2, 4.7: one analysis run of a ticket. The cache is read unless
   * `bypass_cache` (the queue bypasses it) and always written; the
   * modifiers and the cap apply after it (design 10.8).
   */
  async analyseTicket(input: TicketAnalysisInput): Promise<TicketAnalysis> {
    const ttl = await this.deps.options.get("ai_cache_ttl");
    const key = `${this.deps.config.QUEUE_PREFIX}:ai:urgency:analysis:${sha256Hex(JSON.stringify([input.subject, input.customer_type, input.body]))}`;
    if (!input.bypass_cache && ttl > 0) {
      const hit = await this.deps.redis.get(key);
      if (hit) {
        const cached = JSON.parse(hit) as { answer: AnalysisAnswer; model: string };
        return finalAnalysis(cached.answer, input, cached.model, true);
      }
    }
    const client = await this.provider();
    let answer: AnalysisAnswer;
    let model = "rules";
    if (!client) {
      answer = analyseByRules(input);
    } else {
      const configured = await this.deps.options.get("ai_urgency_model");
      const { system, prompt } = analysisPrompt(input, await this.deps.options.get("urgency_criteria"));
      const result = await callModel(client, configured, { system, prompt, jsonSchema: ANALYSIS_JSON_SCHEMA }, analysisAnswer, { ...(await this.policy()), fallbacks: urgencyChain(configured) }, this.deps.logger);
      answer = result.value;
      model = result.model;
    }
    if (ttl > 0) await this.deps.redis.set(key, JSON.stringify({ answer, model }), "EX", ttl);
    return finalAnalysis(answer, input, model, false);
  }

  /**
   * Forgets every cached urgency result (admin AJAX `ai_clear_cache`); answers
   * how many were dropped. Other processes stop using theirs within LOCAL_URGENCY_MS.
   */
  async clearUrgencyCache(): Promise<number> {
    this.local.clear();
    return unlinkMatching(this.deps.redis, `${this.deps.config.QUEUE_PREFIX}:ai:urgency:*`, 500);
  }
}

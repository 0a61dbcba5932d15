import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import { AppError } from "../platform/errors.ts";
import type { Logger } from "../platform/logger.ts";
import { GeminiError, type GeminiClient, type GenerateRequest } from "../providers/gemini/index.ts";

/** Spec 2, 4.1 rule 5: after the configured model, these, in this order. */
export const FALLBACK_CHAIN = ["gemini-2.5-flash", "gemini-2.0-flash", "gemini-1.5-flash"] as const;

export interface CallPolicy {
  /** Attempts per model (`ai_max_retries`). */
  attempts: number;
  /** The first wait; the waits are 1x and 2x between attempts and 4x before the next model (1 s, 2 s, 4 s in production). */
  baseDelayMs: number;
  /** The models after the configured one (default FALLBACK_CHAIN; the urgency pipeline has its own, spec 2, 4.7 rule 3). */
  fallbacks?: readonly string[];
}

export interface ModelAnswer<T> {
  value: T;
  model: string;
}

function aiError(message: string): AppError {
  return new AppError(500, "ai_error", message);
}

/** Models 404s were seen for, skipped from then on in this process (design 10.8: warned once). */
const unknownModels = new Set<string>();

/**
 * One structured call with spec 2's retries and fallback (design 10.8):
 * `attempts` per model, waiting 1x then 2x the base delay between them and
 * 4x before the next model of the chain. 429, 5xx, timeouts and answers that
 * fail `schema` are tried again; a refusal (400/401/403) or a blocked prompt
 * ends at once. After the chain: 500 `ai_error`. Each attempt is logged with
 * model, attempt, latency and tokens, never the prompt.
 */
export async function callModel<S extends z.ZodType>(
  client: GeminiClient,
  model: string,
  request: GenerateRequest,
  schema: S,
  policy: CallPolicy,
  log: Logger,
): Promise<ModelAnswer<z.output<S>>> {
  const chain = [model, ...(policy.fallbacks ?? FALLBACK_CHAIN).filter((fallback) => fallback !== model)].filter((candidate) => !unknownModels.has(candidate));
  let last = "no model could be asked";
  for (const [index, candidate] of chain.entries()) {
    if (index > 0) await sleep(policy.baseDelayMs * 4);
    for (let attempt = 1; attempt <= policy.attempts; attempt += 1) {
      if (attempt > 1) await sleep(policy.baseDelayMs * 2 ** (attempt - 2));
      const started = performance.now();
      try {
        const result = await client.generate(candidate, request);
        let value: unknown;
        try {
          value = request.jsonSchema ? JSON.parse(result.text) : result.text;
        } catch {
          throw new GeminiError("malformed", "AI provider answered text that is not JSON");
        }
        const parsed = schema.safeParse(value);
        if (!parsed.success) throw new GeminiError("malformed", `AI provider answered JSON that does not fit: ${parsed.error.issues[0]?.message ?? "invalid"}`);
        log.info("ai call", { model: candidate, attempt, latency_ms: Math.round(performance.now() - started), prompt_tokens: result.usage.promptTokens, output_tokens: result.usage.outputTokens });
        return { value: parsed.data, model: candidate };
      } catch (error) {
        if (!(error instanceof GeminiError)) throw error;
        last = error.message;
        log.warn("ai call failed", { model: candidate, attempt, latency_ms: Math.round(performance.now() - started), kind: error.kind, error: error.message });
        if (error.kind === "unknown_model") {
          unknownModels.add(candidate);
          break;
        }
        if (!error.retryable) throw aiError(`AI request failed: ${error.message}`);
      }
    }
  }
  throw aiError(`AI request failed after retries and the fallback models: ${last}`);
}

import { setTimeout as sleep } from "node:timers/promises";
import type { z } from "zod";
import { AppError } from "@mw/platform/core";
import type { Logger } from "@mw/platform/logging";
import { GeminiError, type GeminiClient, type GenerateRequest } from "@mw/providers/gemini";

/** Spec 2, 4.1 rule 5: after the configured model, these, in this order. */
const FALLBACK_CHAIN = ["gemini-2.5-flash", "gemini-2.0-flash", "gemini-1.5-flash"] as const;

export interface CallPolicy {
  /** Attempts per model (`ai_max_retries`). */
  attempts: number;
  /** The first wait; the waits are 1x and 2x between attempts and 4x before the next model (1 s, 2 s, 4 s in production). */
  baseDelayMs: number;
  /** The models after the configured one (default FALLBACK_CHAIN; the urgency pipeline has its own, spec 2, 4.7 rule 3). */
  fallbacks?: readonly string[];
}

interface ModelAnswer<T> {
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
  const chain = modelChain(model, policy);
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
        const failed = failedAttempt(error, candidate, attempt, started, log);
        last = failed.message;
        if (failed.nextModel) break;
      }
    }
  }
  throw aiError(`AI request failed after retries and the fallback models: ${last}`);
}

/** The configured model, then the chain's others, less those known not to exist. */
function modelChain(model: string, policy: CallPolicy): string[] {
  return [model, ...(policy.fallbacks ?? FALLBACK_CHAIN).filter((fallback) => fallback !== model)].filter((candidate) => !unknownModels.has(candidate));
}

/** Logs a failed attempt and says what follows (the next model, for one that does not exist); throws when no retry may follow. */
function failedAttempt(error: unknown, candidate: string, attempt: number, started: number, log: Logger): { message: string; nextModel: boolean } {
  if (!(error instanceof GeminiError)) throw error;
  log.warn("ai call failed", { model: candidate, attempt, latency_ms: Math.round(performance.now() - started), kind: error.kind, error: error.message });
  if (error.kind === "unknown_model") unknownModels.add(candidate);
  else if (!error.retryable) throw aiError(`AI request failed: ${error.message}`);
  return { message: error.message, nextModel: error.kind === "unknown_model" };
}

/**
 * A streamed answer (chat) under the same retry and fallback rules, as long
 * as nothing has been yielded: once text has gone to the reader a failure
 * ends the stream with `ai_error` (a second answer would repeat the first
 * one's beginning). `signal` cancels the provider call and any wait. The
 * generator's return value is the model that answered.
 */
export async function* streamModel(client: GeminiClient, model: string, request: GenerateRequest, policy: CallPolicy, log: Logger, signal: AbortSignal): AsyncGenerator<string, string> {
  let last = "no model could be asked";
  for (const [index, candidate] of modelChain(model, policy).entries()) {
    if (index > 0) await sleep(policy.baseDelayMs * 4, undefined, { signal });
    for (let attempt = 1; attempt <= policy.attempts; attempt += 1) {
      if (attempt > 1) await sleep(policy.baseDelayMs * 2 ** (attempt - 2), undefined, { signal });
      const started = performance.now();
      let written = false;
      try {
        for await (const piece of client.stream(candidate, request, signal)) {
          written = true;
          yield piece;
        }
        if (!written) throw new GeminiError("malformed", "AI provider streamed no text");
        log.info("ai stream", { model: candidate, attempt, latency_ms: Math.round(performance.now() - started) });
        return candidate;
      } catch (error) {
        if (written || (error instanceof GeminiError && error.kind === "cancelled")) {
          log.warn("ai stream ended early", { model: candidate, attempt, error: (error as Error).message });
          throw aiError(`AI answer broke off: ${(error as Error).message}`);
        }
        const failed = failedAttempt(error, candidate, attempt, started, log);
        last = failed.message;
        if (failed.nextModel) break;
      }
    }
  }
  throw aiError(`AI request failed after retries and the fallback models: ${last}`);
}

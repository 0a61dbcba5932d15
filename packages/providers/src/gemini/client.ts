import type { Got } from "got";
import { z } from "zod";
import { trimEndChars } from "@mw/platform/text";
import { createHttpClient } from "@mw/platform/http";

/** What a generateContent call sends (contracts: Gemini REST v1beta). */
export interface GenerateRequest {
  system?: string;
  prompt: string;
  /** JSON mode: the answer is JSON matching this JSON Schema (sent as `responseJsonSchema`). */
  jsonSchema?: Record<string, unknown>;
  temperature?: number;
  maxOutputTokens?: number;
}

export interface GenerateResult {
  text: string;
  model: string;
  finishReason: string | undefined;
  usage: { promptTokens: number; outputTokens: number; totalTokens: number };
}

const usage = z.looseObject({ promptTokenCount: z.number().optional(), candidatesTokenCount: z.number().optional(), totalTokenCount: z.number().optional() });
const answer = z.looseObject({
  candidates: z
    .array(
      z.looseObject({
        content: z.looseObject({ parts: z.array(z.looseObject({ text: z.string().optional(), thought: z.boolean().optional() })).optional() }).optional(),
        finishReason: z.string().optional(),
      }),
    )
    .optional(),
  promptFeedback: z.looseObject({ blockReason: z.string().optional() }).optional(),
  usageMetadata: usage.optional(),
  modelVersion: z.string().optional(),
});
const embeddings = z.looseObject({ embeddings: z.array(z.looseObject({ values: z.array(z.number()) })) });
const errorBody = z.looseObject({ error: z.looseObject({ code: z.number().optional(), message: z.string().optional(), status: z.string().optional(), details: z.array(z.looseObject({})).optional() }) });

/** Why the provider did not give an answer we can use, for the retry rules of spec 2, 4.1 (design 10.8). */
export type GeminiFailureKind = "rate_limited" | "unavailable" | "timeout" | "refused" | "unknown_model" | "blocked" | "malformed" | "cancelled";

export class GeminiError extends Error {
  constructor(
    readonly kind: GeminiFailureKind,
    message: string,
    /** 429: how long the provider asked us to wait (RetryInfo.retryDelay), in ms. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "GeminiError";
  }

  /** 429, 5xx, timeouts and unusable answers are worth another attempt; 400/401/403 are not. */
  get retryable(): boolean {
    return this.kind === "rate_limited" || this.kind === "unavailable" || this.kind === "timeout" || this.kind === "malformed";
  }
}

function retryDelayMs(details: Record<string, unknown>[] | undefined): number | undefined {
  const info = details?.find((detail) => String(detail["@type"] ?? "").endsWith("RetryInfo"));
  const delay = typeof info?.retryDelay === "string" ? /^(\d+(?:\.\d+)?)s$/.exec(info.retryDelay) : null;
  return delay ? Math.round(Number(delay[1]) * 1000) : undefined;
}

/** The provider's error answer (or no answer) as a GeminiError; the key never appears in the message. */
function failure(error: unknown): GeminiError {
  const response = (error as { response?: { statusCode?: number; body?: unknown } }).response;
  if (!response?.statusCode) {
    const code = (error as { code?: string }).code;
    return new GeminiError(code === "ETIMEDOUT" ? "timeout" : "unavailable", `AI provider request failed: ${code ?? (error as Error).message}`);
  }
  const status = response.statusCode;
  let parsed: z.infer<typeof errorBody> | undefined;
  try {
    parsed = errorBody.parse(typeof response.body === "string" ? JSON.parse(response.body) : response.body);
  } catch {
    parsed = undefined;
  }
  const message = `AI provider answered HTTP ${status}${parsed?.error.status ? ` ${parsed.error.status}` : ""}${parsed?.error.message ? `: ${parsed.error.message}` : ""}`;
  if (status === 429) return new GeminiError("rate_limited", message, retryDelayMs(parsed?.error.details));
  if (status === 404) return new GeminiError("unknown_model", message);
  if (status >= 500 || status === 408) return new GeminiError("unavailable", message);
  return new GeminiError("refused", message);
}

/**
 * Gemini REST (v1beta) over the one HTTP client factory: the key goes in
 * `x-goog-api-key`, every call has the timeout, and failures become a
 * GeminiError whose kind the retry rules read. We own retries (got's are off).
 */
export class GeminiClient {
  private readonly http: Got;

  constructor(options: { baseUrl: string; apiKey: string; timeoutMs: number }) {
    this.http = createHttpClient({
      baseUrl: `${trimEndChars(options.baseUrl, "/")}/v1beta`,
      headers: { "x-goog-api-key": options.apiKey, "content-type": "application/json" },
      timeoutMs: options.timeoutMs,
    });
  }

  private body(request: GenerateRequest) {
    return {
      contents: [{ role: "user", parts: [{ text: request.prompt }] }],
      ...(request.system && { systemInstruction: { parts: [{ text: request.system }] } }),
      generationConfig: {
        temperature: request.temperature ?? 0.2,
        ...(request.maxOutputTokens && { maxOutputTokens: request.maxOutputTokens }),
        ...(request.jsonSchema && { responseMimeType: "application/json", responseJsonSchema: request.jsonSchema }),
      },
    };
  }

  async generate(model: string, request: GenerateRequest): Promise<GenerateResult> {
    let raw: unknown;
    try {
      raw = await this.http.post(`models/${encodeURIComponent(model)}:generateContent`, { json: this.body(request) }).json();
    } catch (error) {
      throw failure(error);
    }
    const parsed = answer.safeParse(raw);
    if (!parsed.success) throw new GeminiError("malformed", "AI provider answered a body that is not a generateContent response");
    const { candidates, promptFeedback, usageMetadata } = parsed.data;
    if (promptFeedback?.blockReason || !candidates?.length) {
      throw new GeminiError("blocked", `AI provider blocked the prompt${promptFeedback?.blockReason ? ` (${promptFeedback.blockReason})` : ""}`);
    }
    const [first] = candidates;
    const text = (first!.content?.parts ?? []).filter((part) => !part.thought).map((part) => part.text ?? "").join("");
    if (!text) throw new GeminiError("malformed", `AI provider answered no text (finishReason ${first!.finishReason ?? "none"})`);
    return {
      text,
      model,
      finishReason: first!.finishReason,
      usage: { promptTokens: usageMetadata?.promptTokenCount ?? 0, outputTokens: usageMetadata?.candidatesTokenCount ?? 0, totalTokens: usageMetadata?.totalTokenCount ?? 0 },
    };
  }

  /**
   * The answer as it is written (`streamGenerateContent?alt=sse`): each event
   * is a GenerateContentResponse whose text parts are yielded as they come;
   * an `{error}` event, a blocked prompt or a broken stream throws a GeminiError.
   */
  async *stream(model: string, request: GenerateRequest, signal?: AbortSignal): AsyncGenerator<string> {
    let buffer = "";
    // `signal` cuts the provider's connection (a chat client that went away must not keep the model writing).
    const source = this.http.stream.post(`models/${encodeURIComponent(model)}:streamGenerateContent`, { json: this.body(request), searchParams: { alt: "sse" }, ...(signal && { signal }) });
    try {
      for await (const chunk of source) {
        buffer += (chunk as Buffer).toString("utf8");
        let end: number;
        while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, "");
          const data = event
            .split(/\r?\n/)
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).trim())
            .join("");
          if (!data) continue;
          let parsed: unknown;
          try {
            parsed = JSON.parse(data);
          } catch {
            throw new GeminiError("malformed", "AI provider sent a stream event that is not JSON");
          }
          const error = errorBody.safeParse(parsed);
          if (error.success) throw new GeminiError(error.data.error.code === 429 ? "rate_limited" : "unavailable", `AI provider stream failed: ${error.data.error.message ?? "error"}`);
          const piece = answer.safeParse(parsed);
          if (!piece.success) throw new GeminiError("malformed", "AI provider sent a stream event that is not a response");
          if (piece.data.promptFeedback?.blockReason) throw new GeminiError("blocked", `AI provider blocked the prompt (${piece.data.promptFeedback.blockReason})`);
          const text = (piece.data.candidates?.[0]?.content?.parts ?? []).filter((part) => !part.thought).map((part) => part.text ?? "").join("");
          if (text) yield text;
        }
      }
    } catch (error) {
      if (error instanceof GeminiError) throw error;
      if (signal?.aborted) throw new GeminiError("cancelled", "AI provider stream cancelled");
      throw failure(error);
    }
  }

  /** Embeddings of `texts` (`batchEmbedContents`), each `dimensions` long (design 10.8: 768 everywhere). */
  async embed(model: string, texts: string[], options: { dimensions: number; taskType?: "RETRIEVAL_QUERY" | "RETRIEVAL_DOCUMENT" }): Promise<number[][]> {
    const requests = texts.map((text) => ({ model: `models/${model}`, content: { parts: [{ text }] }, outputDimensionality: options.dimensions, ...(options.taskType && { taskType: options.taskType }) }));
    let raw: unknown;
    try {
      raw = await this.http.post(`models/${encodeURIComponent(model)}:batchEmbedContents`, { json: { requests } }).json();
    } catch (error) {
      throw failure(error);
    }
    const parsed = embeddings.safeParse(raw);
    if (!parsed.success || parsed.data.embeddings.length !== texts.length) throw new GeminiError("malformed", "AI provider answered a body that is not a batchEmbedContents response");
    const vectors = parsed.data.embeddings.map((embedding) => embedding.values);
    if (vectors.some((vector) => vector.length !== options.dimensions)) throw new GeminiError("malformed", `AI provider answered embeddings that are not ${options.dimensions} long`);
    return vectors;
  }
}

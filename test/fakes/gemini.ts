import { FakeServer, type FakeAnswer, type FakeReply, type FakeRequest } from "./fake-server.ts";

/** What one generateContent call gets: an answer's text, or a fault of the real service. */
export type GeminiStep =
  | { text: string; model?: string }
  | { fault: 429 | 500 | 503 | 400 | 403 | 404; retryDelay?: string }
  | { fault: "hang" | "malformed" | "blocked" }
  /** A streamed answer in these pieces, one every `intervalMs`; with `failAfter`, an `{error}` event follows that many pieces. */
  | { pieces: string[]; intervalMs?: number; failAfter?: number };

export interface GeminiCall {
  model: string;
  at: number;
  body: { contents?: { parts?: { text?: string }[] }[]; systemInstruction?: unknown; generationConfig?: { responseMimeType?: string; responseJsonSchema?: unknown } };
}

const STATUS: Record<number, string> = { 400: "INVALID_ARGUMENT", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE" };

/**
 * Gemini REST v1beta (contract sheet, section 2) on 127.0.0.1:
 * `POST /v1beta/models/{model}:generateContent` with `x-goog-api-key`,
 * Google's error body (`{error:{code,message,status,details}}`, RetryInfo on
 * 429), blocked prompts (no candidates, `promptFeedback.blockReason`) and
 * usage metadata. Tests script the next answers with `script`; without a
 * script, `respond` answers (by default a fixed text, or a valid urgency JSON
 * in JSON mode). Models outside `models` answer 404 as the real service does.
 */
export class FakeGemini extends FakeServer {
  readonly calls: GeminiCall[] = [];
  readonly steps: GeminiStep[] = [];
  models = new Set(["gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-2.5-pro", "gemini-3-pro-preview", "gemini-2.0-flash", "gemini-2.0-flash-lite", "gemini-1.5-flash", "gemini-1.5-pro", "gemini-3-flash-preview"]);
  respond: (call: GeminiCall) => string = (call) =>
    call.body.generationConfig?.responseMimeType === "application/json"
      ? JSON.stringify({ score: 70, workaround_available: false, summary: "Checkout is failing.", reasoning: "Production down +35, revenue impact +15.", suggested_title: "Checkout failing" })
      : `Rewritten: ${call.body.contents?.[0]?.parts?.[0]?.text ?? ""}`;

  constructor(readonly apiKey: string) {
    super();
    this.route("POST", "/v1beta/models/:call", (request, params) => this.generate(request, params.call!));
  }

  /** Queues the answers of the next calls, in order. */
  script(...steps: GeminiStep[]): this {
    this.steps.push(...steps);
    return this;
  }

  reset(): void {
    this.calls.length = 0;
    this.steps.length = 0;
    this.requests.length = 0;
  }

  private error(status: number, message: string, details: object[] = []): FakeReply {
    return this.json(status, { error: { code: status, message, status: STATUS[status] ?? "UNKNOWN", details } });
  }

  private generate(request: FakeRequest, call: string): FakeAnswer {
    const [model, method] = call.split(":");
    if (method !== "generateContent" && method !== "streamGenerateContent" && method !== "batchEmbedContents") return this.error(404, `Method ${method} is not found.`);
    if (request.headers["x-goog-api-key"] !== this.apiKey) {
      return this.error(400, "API key not valid. Please pass a valid API key.", [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" }]);
    }
    let body: GeminiCall["body"];
    try {
      body = JSON.parse(request.body) as GeminiCall["body"];
    } catch {
      return this.error(400, "Invalid JSON payload received.");
    }
    const entry: GeminiCall = { model: model!, at: Date.now(), body };
    this.calls.push(entry);
    if (method === "batchEmbedContents") return this.embed(model!, body as { requests?: { content?: { parts?: { text?: string }[] }; outputDimensionality?: number }[] });
    if (!this.models.has(model!)) return this.error(404, `models/${model} is not found for API version v1beta, or is not supported for generateContent.`);
    const step = this.steps.shift();
    if (step && "fault" in step) {
      if (step.fault === "hang") return "hang";
      if (step.fault === "malformed") return this.answerText("this is not the JSON you asked for");
      if (step.fault === "blocked") return this.json(200, { promptFeedback: { blockReason: "SAFETY" }, usageMetadata: { promptTokenCount: 12, totalTokenCount: 12 } });
      if (step.fault === 429) {
        return this.error(429, "Resource has been exhausted (e.g. check quota).", [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: step.retryDelay ?? "19s" }]);
      }
      if (step.fault === 503) return this.error(503, "The model is overloaded. Please try again later.");
      return this.error(step.fault, `Fault ${step.fault}.`);
    }
    if (step && "pieces" in step) return this.streamPieces(step);
    const text = step?.text ?? this.respond(entry);
    return method === "streamGenerateContent" ? this.streamText(text) : this.answerText(text);
  }

  /** The answer in three SSE events, as `alt=sse` sends it; the last carries finishReason and usage. */
  private streamText(text: string): FakeReply {
    const third = Math.ceil(text.length / 3);
    const pieces = [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
    const events = pieces.map((piece, i) =>
      JSON.stringify({
        candidates: [{ content: { role: "model", parts: [{ text: piece }] }, ...(i === 2 && { finishReason: "STOP" }), index: 0 }],
        ...(i === 2 && { usageMetadata: { promptTokenCount: 42, candidatesTokenCount: 9, totalTokenCount: 51 } }),
      }),
    );
    return { status: 200, headers: { "content-type": "text/event-stream" }, body: events.map((event) => `data: ${event}\r\n\r\n`).join("") };
  }

  private streamPieces(step: { pieces: string[]; intervalMs?: number; failAfter?: number }): FakeReply {
    const event = (body: unknown) => `data: ${JSON.stringify(body)}\r\n\r\n`;
    async function* pieces() {
      for (const [i, piece] of step.pieces.entries()) {
        if (step.failAfter !== undefined && i === step.failAfter) {
          yield event({ error: { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" } });
          return;
        }
        if (i > 0 && step.intervalMs) await new Promise((resolve) => setTimeout(resolve, step.intervalMs));
        yield event({ candidates: [{ content: { role: "model", parts: [{ text: piece }] }, index: 0 }] });
      }
      yield event({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 42, candidatesTokenCount: 9, totalTokenCount: 51 } });
    }
    return { status: 200, headers: { "content-type": "text/event-stream" }, stream: pieces() };
  }

  /** `gemini-embedding-001` only; each vector is derived from its text, of the requested length (default 3072). */
  private embed(model: string, body: { requests?: { content?: { parts?: { text?: string }[] }; outputDimensionality?: number }[] }): FakeReply {
    if (model !== "gemini-embedding-001") return this.error(404, `models/${model} is not found for API version v1beta, or is not supported for embedContent.`);
    const embeddings = (body.requests ?? []).map((request) => {
      const text = request.content?.parts?.map((part) => part.text ?? "").join("") ?? "";
      const size = request.outputDimensionality ?? 3072;
      return { values: Array.from({ length: size }, (_, i) => Math.sin(i + text.length) / 10) };
    });
    return this.json(200, { embeddings });
  }

  private answerText(text: string): FakeReply {
    return this.json(200, {
      candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 42, candidatesTokenCount: Math.ceil(text.length / 4), totalTokenCount: 42 + Math.ceil(text.length / 4) },
      modelVersion: "fake",
      responseId: `resp-${this.calls.length}`,
    });
  }
}

import { GeminiClient, GeminiError } from "@mw/providers/gemini";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeGemini } from "../fakes/gemini.ts";

const KEY = "AIzaFAKE-client-test";
let gemini: FakeGemini;
let client: GeminiClient;

beforeAll(async () => {
  gemini = await new FakeGemini(KEY).start();
  client = new GeminiClient({ baseUrl: gemini.url, apiKey: KEY, timeoutMs: 500 });
});
beforeEach(() => gemini.reset());
afterAll(() => gemini.stop());

async function failure(promise: Promise<unknown>): Promise<GeminiError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(GeminiError);
  return error as GeminiError;
}

describe("Gemini client (contract sheet, section 2)", () => {
  it("sends the key in x-goog-api-key, JSON mode with a schema, and reads text and token counts", async () => {
    gemini.script({ text: '{"ok":true}' });
    const result = await client.generate("gemini-2.5-flash", { system: "Be brief.", prompt: "Hi", jsonSchema: { type: "object" } });
    expect(result).toMatchObject({ text: '{"ok":true}', model: "gemini-2.5-flash", finishReason: "STOP", usage: { promptTokens: 42 } });
    const sent = gemini.calls[0]!.body as Record<string, unknown>;
    expect(sent).toMatchObject({ systemInstruction: { parts: [{ text: "Be brief." }] }, generationConfig: { responseMimeType: "application/json", responseJsonSchema: { type: "object" } } });
    expect(gemini.requests[0]!.headers["x-goog-api-key"]).toBe(KEY);
    expect(gemini.requests[0]!.url).not.toContain(KEY);
  });

  it("types each failure: 429 with its RetryInfo, 503, 404 model, 400 key, blocked prompt, timeout", async () => {
    gemini.script({ fault: 429, retryDelay: "19s" }, { fault: 503 }, { fault: "blocked" }, { fault: "hang" });
    const limited = await failure(client.generate("gemini-2.5-flash", { prompt: "x" }));
    expect([limited.kind, limited.retryAfterMs, limited.retryable]).toEqual(["rate_limited", 19_000, true]);
    expect((await failure(client.generate("gemini-2.5-flash", { prompt: "x" }))).message).toBe("AI provider answered HTTP 503 UNAVAILABLE: The model is overloaded. Please try again later.");
    expect(await failure(client.generate("gemini-2.5-flash", { prompt: "x" }))).toMatchObject({ kind: "blocked", retryable: false });
    expect(await failure(client.generate("gemini-2.5-flash", { prompt: "x" }))).toMatchObject({ kind: "timeout", retryable: true });
    expect(await failure(client.generate("gemini-0-nope", { prompt: "x" }))).toMatchObject({ kind: "unknown_model", retryable: false });
    const badKey = new GeminiClient({ baseUrl: gemini.url, apiKey: "wrong", timeoutMs: 500 });
    const refused = await failure(badKey.generate("gemini-2.5-flash", { prompt: "x" }));
    expect(refused).toMatchObject({ kind: "refused", retryable: false });
    expect(refused.message).toContain("API key not valid");
    expect(refused.message).not.toContain("wrong");
  });

  it("streams the answer as it comes (alt=sse)", async () => {
    gemini.script({ text: "Hello from the stream." });
    const pieces: string[] = [];
    for await (const piece of client.stream("gemini-2.5-flash", { prompt: "hi" })) pieces.push(piece);
    expect(pieces.length).toBe(3);
    expect(pieces.join("")).toBe("Hello from the stream.");
    expect(gemini.requests[0]!.url).toContain(":streamGenerateContent?alt=sse");
  });

  it("embeds a batch at 768 dimensions (batchEmbedContents)", async () => {
    const vectors = await client.embed("gemini-embedding-001", ["first text", "second"], { dimensions: 768, taskType: "RETRIEVAL_DOCUMENT" });
    expect(vectors.map((vector) => vector.length)).toEqual([768, 768]);
    expect(gemini.calls[0]!.body).toMatchObject({ requests: [{ model: "models/gemini-embedding-001", outputDimensionality: 768, taskType: "RETRIEVAL_DOCUMENT" }, {}] });
  });
});

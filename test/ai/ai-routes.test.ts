import { LOCAL_URGENCY_MS } from "@mw/domains/ai";
import { AI_TEXT_LIMIT } from "@mw/api/routes/ai/ai";
import { unlinkMatching } from "@mw/platform";
import { OPTIONS } from "@mw/domains/options";
import { createUser, setLoginPassword } from "@mw/domains/identity";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeGemini } from "../fakes/gemini.ts";
import { startApi, uniqueLogin, type TestApi } from "../support/api.ts";

const PROVIDER_KEY = "AIzaFAKE-provider-key-7d1c";
const SHARED_KEY = "shared-ai-key-4b9e-0c71d5a2e8f36b19";
const BASE_MS = 40;

let gemini: FakeGemini;
let api: TestApi;
let rules: TestApi;
const logged: string[] = [];

async function reset(target: TestApi, changes: Record<string, unknown> = {}): Promise<void> {
  await target.ctx.options.set({ ...Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])), ai_security_key: SHARED_KEY, ai_rate_limit: 100_000, ...changes });
}

beforeAll(async () => {
  gemini = await new FakeGemini(PROVIDER_KEY).start();
  const env = { AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY, AI_RETRY_BASE_MS: String(BASE_MS), AI_TIMEOUT_MS: "1000" };
  [api, rules] = await Promise.all([startApi(env), startApi({ AI_RETRY_BASE_MS: String(BASE_MS) })]);
  for (const target of [api, rules]) target.ctx.logger.on("data", (entry: unknown) => logged.push(JSON.stringify(entry)));
});
beforeEach(async () => {
  gemini.reset();
  await reset(api);
  await api.ctx.ai.clearUrgencyCache();
});
afterAll(async () => {
  await api.ctx.options.set(Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])));
  await Promise.all([api.close(), rules.close()]);
  await gemini.stop();
});

async function post(target: TestApi, path: string, body: unknown, headers: Record<string, string> = { "ai-security-key": SHARED_KEY }) {
  const res = await fetch(`${target.url}/ai/${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

const TICKET = { subject: "Checkout down", body: "Since 9am no customer can pay, checkout shows a 500 error.", client_name: "ACME", is_vip: false };
const gaps = () => gemini.calls.slice(1).map((call, i) => call.at - gemini.calls[i]!.at);

describe("authentication and limits (spec 2, 5 and 8)", () => {
  it("refuses a missing or wrong ai-security-key with 401 unauthorized, and every key while the option is unset", async () => {
    expect(await post(api, "parse-email-reply", { email_body: "Hi" }, {})).toMatchObject({ status: 401, body: { code: "unauthorized", data: { status: 401 } } });
    expect((await post(api, "parse-email-reply", { email_body: "Hi" }, { "ai-security-key": `${SHARED_KEY}x` })).status).toBe(401);
    expect((await post(api, "parse-email-reply", { email_body: "Hi" })).status).toBe(200);
    await api.ctx.options.set({ ai_security_key: null });
    expect((await post(api, "parse-email-reply", { email_body: "Hi" })).status).toBe(401);
    expect((await post(api, "parse-email-reply", { email_body: "Hi" }, { "ai-security-key": "" })).status).toBe(401);
  });

  it("lets a logged-in user with the session nonce rewrite, but not score urgency", async () => {
    const login = uniqueLogin("writer");
    await createUser(api.ctx, { login, capabilities: ["staff"] });
    await setLoginPassword(api.ctx, login, "writer password");
    const session = await fetch(`${api.url}/middleware/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ login, password: "writer password" }) });
    const cookie = session.headers.get("set-cookie")!.split(";")[0]!;
    const { nonce } = (await session.json()) as { nonce: string };
    expect((await post(api, "rewrite", { text: "hello" }, { cookie, "x-nonce": nonce })).status).toBe(200);
    expect((await post(api, "rewrite", { text: "hello" }, { cookie })).status).toBe(401);
    expect((await post(api, "ticket-urgency", TICKET, { cookie, "x-nonce": nonce })).status).toBe(401);
  });

  it("limits each address to ai_rate_limit per ai_rate_window across two API processes, with Retry-After", async () => {
    await reset(api, { ai_rate_limit: 3, ai_rate_window: 61 });
    // Two apps, each with its own connections and option cache as a process has: only Redis is shared.
    const apps = await Promise.all([startApi({ AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY }), startApi({ AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY })]);
    try {
      const statuses = [];
      let last: Response | undefined;
      for (const app of [apps[0], apps[1], apps[0], apps[1]]) {
        last = await fetch(`${app!.url}/ai/parse-email-reply`, { method: "POST", headers: { "content-type": "application/json", "ai-security-key": SHARED_KEY }, body: JSON.stringify({ email_body: "Hi" }) });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(await last!.json()).toMatchObject({ code: "rate_limited", data: { status: 429 } });
      expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
    }
  });

  it("counts CF-Connecting-IP only from a peer TRUST_PROXY trusts", async () => {
    await reset(api, { ai_rate_limit: 3, ai_rate_window: 67 });
    await unlinkMatching(api.ctx.redis, `${api.ctx.config.QUEUE_PREFIX}:ai:rate:*`);
    // This test's requests come from 127.0.0.1: outside 10.0.0.0/8, a proxy of the loopback range.
    const [untrusted, trusted] = await Promise.all([startApi({ TRUST_PROXY: "10.0.0.0/8" }), startApi({ TRUST_PROXY: "loopback" })]);
    try {
      const from = (target: TestApi, address: string) => post(target, "parse-email-reply", { email_body: "Hi" }, { "ai-security-key": SHARED_KEY, "cf-connecting-ip": address });
      const statuses = [];
      for (let i = 1; i <= 4; i += 1) statuses.push((await from(untrusted, `192.0.2.${i}`)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      // From a trusted proxy, the header names the client: each address has its own count.
      for (let i = 1; i <= 4; i += 1) expect((await from(trusted, `192.0.2.${100 + i}`)).status).toBe(200);
    } finally {
      await Promise.all([untrusted.close(), trusted.close()]);
    }
  });

  it("answers 413 to a body over the limit (design 10.8), before it reads the key", async () => {
    const res = await post(api, "rewrite", { text: "a".repeat(1_100_000) }, {});
    expect(res).toMatchObject({ status: 413, body: { code: "rest_payload_too_large", data: { status: 413 } } });
  });

  it("answers 400 invalid_params for missing or wrong-typed fields", async () => {
    expect(await post(api, "ticket-urgency", { subject: "x", body: "y", client_name: "z" })).toMatchObject({ status: 400, body: { code: "invalid_params", message: "is_vip: is required" } });
    expect((await post(api, "rewrite", { text: 42 })).body).toMatchObject({ code: "invalid_params" });
    expect((await post(api, "parse-email-reply", {})).body).toMatchObject({ code: "invalid_params" });
  });
});

describe("provider calls (spec 2, 4.1 rules 5 and 6; design 10.8)", () => {
  it("retries a failing model after 1x and 2x the base delay and takes the answer of the third attempt", async () => {
    gemini.script({ fault: 503 }, { fault: 429, retryDelay: "1s" }, { text: "Hello there." });
    const res = await post(api, "rewrite", { text: "hi there", instructions: "friendlier" });
    expect(res).toMatchObject({ status: 200, body: { success: true, rewritten_text: "Hello there.", engine: "model", model: "gemini-2.5-flash" } });
    expect(gemini.calls.map((call) => call.model)).toEqual(["gemini-2.5-flash", "gemini-2.5-flash", "gemini-2.5-flash"]);
    const [first, second] = gaps();
    expect(first).toBeGreaterThanOrEqual(BASE_MS);
    expect(second).toBeGreaterThanOrEqual(2 * BASE_MS);
  });

  it("falls back 2.5 flash, 2.0 flash, 1.5 flash, waiting 4x before each, then answers 500 ai_error", async () => {
    gemini.script(...Array.from({ length: 9 }, () => ({ fault: 503 as const })));
    const res = await post(api, "rewrite", { text: "hi" });
    expect(res).toMatchObject({ status: 500, body: { code: "ai_error", data: { status: 500 } } });
    expect(gemini.calls.map((call) => call.model)).toEqual([
      ...Array(3).fill("gemini-2.5-flash"),
      ...Array(3).fill("gemini-2.0-flash"),
      ...Array(3).fill("gemini-1.5-flash"),
    ]);
    expect(gaps()[2]).toBeGreaterThanOrEqual(4 * BASE_MS);
    expect(gaps()[5]).toBeGreaterThanOrEqual(4 * BASE_MS);
  });

  it("uses ai_urgency_model for urgency and ai_model for the others, and ai_max_retries attempts per model", async () => {
    await reset(api, { ai_model: "gemini-2.5-pro", ai_urgency_model: "gemini-2.0-flash-lite", ai_max_retries: 1 });
    await post(api, "ticket-urgency", TICKET);
    await post(api, "rewrite", { text: "hi" });
    expect(gemini.calls.map((call) => call.model)).toEqual(["gemini-2.0-flash-lite", "gemini-2.5-pro"]);
    gemini.reset();
    gemini.script({ fault: 500 }, { text: "ok" });
    expect((await post(api, "rewrite", { text: "hi" })).body).toMatchObject({ model: "gemini-2.5-flash" });
    expect(gemini.calls.map((call) => call.model)).toEqual(["gemini-2.5-pro", "gemini-2.5-flash"]);
  });

  it("retries an answer that fails the urgency schema, and ends a refusal (400) at once", async () => {
    gemini.script({ fault: "malformed" }, { text: JSON.stringify({ score: 140, workaround_available: false, summary: "s", reasoning: "r", suggested_title: "t" }) });
    const urgency = await post(api, "ticket-urgency", TICKET);
    expect(urgency).toMatchObject({ status: 200, body: { urgency: { score: 70, level: "HIGH", timeline: "Respond the same business day" }, engine: "model" } });
    expect(gemini.calls).toHaveLength(3);
    gemini.reset();
    gemini.script({ fault: 400 });
    expect(await post(api, "rewrite", { text: "hi" })).toMatchObject({ status: 500, body: { code: "ai_error" } });
    expect(gemini.calls).toHaveLength(1);
  });

  it("skips a model the provider does not know and goes on down the chain", async () => {
    await reset(api, { ai_model: "gemini-9-unknown" });
    expect((await post(api, "rewrite", { text: "hi" })).body).toMatchObject({ model: "gemini-2.5-flash" });
    expect(gemini.calls.map((call) => call.model)).toEqual(["gemini-9-unknown", "gemini-2.5-flash"]);
  });

  it("answers identical urgency input from the cache with no provider call, and applies VIP after it", async () => {
    const first = await post(api, "ticket-urgency", TICKET);
    expect(first.body).toMatchObject({ cached: false, urgency: { score: 70, level: "HIGH" } });
    const again = await post(api, "ticket-urgency", TICKET);
    const vip = await post(api, "ticket-urgency", { ...TICKET, is_vip: true });
    expect(again.body).toMatchObject({ cached: true, urgency: { score: 70, level: "HIGH" } });
    expect(vip.body).toMatchObject({ cached: true, urgency: { score: 80, level: "CRITICAL", timeline: "Respond within 1 hour" } });
    expect(gemini.calls).toHaveLength(1);
    expect(await api.ctx.ai.clearUrgencyCache()).toBe(1);
    await post(api, "ticket-urgency", TICKET);
    expect(gemini.calls).toHaveLength(2);
  });

  it("keeps no urgency result past ai_cache_ttl, and stops serving a cleared one in every process within seconds", async () => {
    await reset(api, { ai_cache_ttl: 1 });
    expect((await post(api, "ticket-urgency", TICKET)).body).toMatchObject({ cached: false });
    expect((await post(api, "ticket-urgency", TICKET)).body).toMatchObject({ cached: true });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await post(api, "ticket-urgency", TICKET)).body).toMatchObject({ cached: false });
    expect(gemini.calls).toHaveLength(2);

    await reset(api);
    await post(api, "ticket-urgency", TICKET);
    expect((await post(rules, "ticket-urgency", TICKET)).body).toMatchObject({ cached: true, engine: "model" });
    await api.ctx.ai.clearUrgencyCache();
    await new Promise((resolve) => setTimeout(resolve, LOCAL_URGENCY_MS));
    expect((await post(rules, "ticket-urgency", TICKET)).body).toMatchObject({ cached: false, engine: "rules" });
  });

  it("never shows or logs the provider key or the shared key", async () => {
    await post(api, "rewrite", { text: "hi" });
    gemini.script({ fault: 400 });
    const failed = await post(api, "rewrite", { text: "hi" });
    expect(JSON.stringify(failed.body)).not.toContain(PROVIDER_KEY);
    expect(gemini.requests.every((request) => request.headers["x-goog-api-key"] === PROVIDER_KEY && !request.url.includes(PROVIDER_KEY))).toBe(true);
    expect(logged.join("\n")).toContain('"message":"ai call"');
    expect(logged.join("\n")).not.toContain(PROVIDER_KEY);
    expect(logged.join("\n")).not.toContain(SHARED_KEY);
  });
});

describe("without a provider key: the built-in engines (design 10.2)", () => {
  it("answers the longest thread of spaces between two letters at once, and /healthz answers meanwhile (docs/security.md)", async () => {
    const headers = { "ai-security-key": SHARED_KEY };
    const spaces = (length: number) => `a${" ".repeat(length - 2)}b`;
    // Health probes one after another, each timed from its request to its answer, while the AI calls run.
    let calling = true;
    let slowestHealth = 0;
    const probing = (async () => {
      while (calling) {
        const sent = performance.now();
        expect((await fetch(`${rules.url}/healthz`)).status).toBe(200);
        slowestHealth = Math.max(slowestHealth, performance.now() - sent);
      }
    })();
    try {
      const longest = spaces(AI_TEXT_LIMIT);
      const reply = await post(rules, "parse-email-reply", { email_body: longest }, headers);
      expect(reply).toMatchObject({ status: 200, body: { success: true, engine: "rules" } });
      // Compared by length: a diff of two 100 KB answers would take the test runner minutes.
      expect((reply.body.parsed_reply as string).length).toBe(longest.length);
      expect((await post(rules, "ticket-urgency", { subject: "Help", body: longest, client_name: "ACME", is_vip: false }, headers)).body).toMatchObject({ success: true, engine: "rules" });
      expect((await post(rules, "rewrite", { text: longest }, headers)).body).toEqual({ success: true, rewritten_text: "A b", engine: "rules" });
      // 1 MB is over the route's limit: refused before any parsing.
      expect(await post(rules, "parse-email-reply", { email_body: spaces(1_000_000) }, headers)).toMatchObject({ status: 400, body: { code: "invalid_params" } });
    } finally {
      calling = false;
      await probing;
    }
    // The quadratic parser held the event loop 12 s on this body; linear, it takes milliseconds. Generous for a loaded machine.
    expect(slowestHealth).toBeLessThan(1000);
  });

  it("answers all three operations with engine rules", async () => {
    const headers = { "ai-security-key": SHARED_KEY };
    const urgency = await post(rules, "ticket-urgency", { subject: "Site down", body: "Our website is down and all customers see a 503. We are losing orders.", client_name: "ACME", is_vip: true }, headers);
    expect(urgency.body).toMatchObject({ success: true, engine: "rules", urgency: { level: "CRITICAL" } });
    expect((urgency.body.urgency as { reasoning: string }).reasoning).toMatch(/^Built-in engine: CRITICAL \d+ %.*; weighed most: .*"down".*Modifiers: VIP client \+10/);
    // Only the new text is scored, not the quoted history (design 10.8).
    const settled = await post(rules, "ticket-urgency", { subject: "Re: Your message", body: "All good now, thanks.\n\nOn Tue, 17 Nov 2026, Ann <a@x> wrote:\n> Our website is down and all customers see a 503.", client_name: "ACME", is_vip: false }, headers);
    expect(settled.body).toMatchObject({ engine: "rules", urgency: { level: expect.stringMatching(/^(LOW|MEDIUM)$/) } });
    expect((settled.body.urgency as { reasoning: string }).reasoning).not.toMatch(/"down"|"503"/);
    const reply = await post(rules, "parse-email-reply", { email_body: "Works now.\n\nOn Tue, 17 Nov 2026, Support <s@x> wrote:\n> Try again" }, headers);
    expect(reply.body).toEqual({ success: true, parsed_reply: "Works now.", engine: "rules" });
    const rewrite = await post(rules, "rewrite", { text: "hello  there ,how are you", instructions: "formal" }, headers);
    expect(rewrite.body).toEqual({ success: true, rewritten_text: "Hello there, how are you", engine: "rules" });
    expect(gemini.calls).toHaveLength(0);
  });
});

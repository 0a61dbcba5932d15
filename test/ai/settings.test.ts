import { OPTIONS, OptionStore } from "@mw/domains/options";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { restCall, startApi, userWith, type TestApi } from "../support/api.ts";
import { runCli as cli, runCliProcess } from "../support/processes.ts";
import { until } from "../support/wait.ts";

let api: TestApi;
let admin: string;
let operator: string;
const SECRET = "s3cr3t-shared-key-8f2c-91d0b7a4e6c3";

beforeAll(async () => {
  api = await startApi({ LOG_STDOUT: "false" });
  admin = await userWith(api, "manage_options");
  operator = await userWith(api, "manage_middleware");
});
beforeEach(async () => {
  // Through the API's own store, so its short cache forgets the previous test's values too.
  await api.ctx.options.set(Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])));
});
afterAll(async () => {
  // Other test files in this database slot expect the defaults (no provider key).
  await api.ctx.options.set(Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])));
  await api.close();
});

const settings = (authorization = admin) => restCall(`${api.url}/ai/settings`, "GET", undefined, authorization);
const change = (body: unknown, authorization = admin) => restCall(`${api.url}/ai/settings`, "PUT", body, authorization);

describe("AI settings (spec 2, 2.2)", () => {
  it("answers the spec's defaults, with secrets only as set or unset", async () => {
    expect(await settings()).toMatchObject({
      status: 200,
      body: {
        success: true,
        settings: {
          ai_api_key_set: false,
          ai_security_key_set: false,
          ai_model: "gemini-2.5-flash",
          ai_urgency_model: "gemini-2.5-flash",
          ai_rate_limit: 60,
          ai_rate_window: 60,
          ai_cache_ttl: 3600,
          ai_max_retries: 3,
        },
      },
    });
  });

  it("stores a secret encrypted and never shows it again, in the answer, the table or the log", async () => {
    const logged: unknown[] = [];
    api.ctx.logger.on("data", (entry: unknown) => logged.push(entry));
    const res = await change({ ai_security_key: SECRET, ai_model: "gemini-2.5-pro" });
    expect(logged).toContainEqual(expect.objectContaining({ message: "AI settings changed", options: ["ai_security_key", "ai_model"] }));
    expect(JSON.stringify(logged)).not.toContain(SECRET);
    expect(res.status).toBe(200);
    expect(res.body.settings).toMatchObject({ ai_security_key_set: true, ai_model: "gemini-2.5-pro" });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect(JSON.stringify(await settings())).not.toContain(SECRET);
    const row = await api.ctx.prisma.option.findUniqueOrThrow({ where: { name: "ai_security_key" } });
    expect(row.secret).toBe(true);
    expect(row.value).not.toContain(SECRET);
    expect(await api.ctx.options.get("ai_security_key")).toBe(SECRET);
    // null unsets it.
    expect((await change({ ai_security_key: null })).body.settings).toMatchObject({ ai_security_key_set: false });
  });

  it("refuses an unknown option, a model that is not a Gemini id and a value out of range with invalid_params, changing nothing", async () => {
    for (const body of [{ ai_model: "gpt-4o" }, { ai_rate_limit: 0, ai_model: "gemini-2.0-flash" }, { no_such_option: 1 }, { ai_cache_ttl: "soon" }, ["ai_model"]]) {
      const res = await change(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: "invalid_params", data: { status: 400 } });
    }
    expect((await settings()).body.settings).toMatchObject({ ai_model: "gemini-2.5-flash", ai_rate_limit: 60 });
    // Any Gemini id is accepted (design 10.8), not only the six suggestions.
    expect((await change({ ai_urgency_model: "gemini-3-flash-preview" })).body.settings).toMatchObject({ ai_urgency_model: "gemini-3-flash-preview" });
  });

  it("refuses an ai_security_key shorter than 32 characters, keeping the one set", async () => {
    expect((await change({ ai_security_key: SECRET })).status).toBe(200);
    const short = await change({ ai_security_key: "k".repeat(31) });
    expect(short).toMatchObject({ status: 400, body: { code: "invalid_params", message: "ai_security_key: must be at least 32 characters", data: { status: 400 } } });
    expect(await api.ctx.options.get("ai_security_key")).toBe(SECRET);
    expect((await change({ ai_security_key: "k".repeat(32) })).status).toBe(200);
  });

  it("is for manage_options users only", async () => {
    expect((await settings(operator)).status).toBe(403);
    expect((await change({ ai_model: "gemini-2.5-pro" }, operator)).status).toBe(403);
    expect((await settings("")).status).toBe(403);
  });

  it("shows a change made by another process within seconds", async () => {
    const elsewhere = new OptionStore(api.ctx.prisma, api.ctx.config.ENCRYPTION_KEY);
    expect(await elsewhere.get("ai_rate_limit")).toBe(60);
    await change({ ai_rate_limit: 5 });
    await until(async () => (await elsewhere.get("ai_rate_limit")) === 5, () => "the other process to see the change", 5_000);
  });

  it("gives a process that sat idle the current value on its first read, not the one it last held", async () => {
    const idle = new OptionStore(api.ctx.prisma, api.ctx.config.ENCRYPTION_KEY, 100);
    expect(await idle.get("ai_rate_limit")).toBe(60);
    await change({ ai_rate_limit: 7 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await idle.get("ai_rate_limit")).toBe(7);
  });

  it("pnpm cli options:set and options:get, JSON values parsed, secrets shown as set", async () => {
    const set = await cli("options:set", "ai_rate_limit", "120");
    expect(set.code).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ name: "ai_rate_limit", set: true });
    expect(JSON.parse((await cli("options:get", "ai_rate_limit")).stdout)).toEqual({ name: "ai_rate_limit", value: 120 });
    expect((await cli("options:set", "ai_api_key", "AIzaTESTKEY123")).code).toBe(0);
    // As a process: everything it prints, its log lines included, is what must not hold the key.
    const key = await runCliProcess("options:get", "ai_api_key");
    expect(key.code).toBe(0);
    expect(JSON.parse(key.stdout.split("\n").filter((line) => line.startsWith('{"name"')).join(""))).toEqual({ name: "ai_api_key", set: true });
    expect(key.stdout + key.stderr).not.toContain("AIzaTESTKEY123");
    const refused = await cli("options:set", "ai_model", "claude");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("ai_model: must be a Gemini model id");
  }, 120_000);
});

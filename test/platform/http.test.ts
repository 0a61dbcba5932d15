import express from "express";
import { AppError, createLogger, parseConfig, QUEUE_NAMES } from "@mw/platform";
import { SCHEDULED_JOBS } from "@mw/domains/schedules";
import { ensureSchedules } from "@mw/worker/runtime/schedules";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorHandler } from "@mw/api/http/error-handler";
import { startApi, type TestApi } from "../support/api.ts";
import { testEnv } from "../support/env.ts";

let api: TestApi;
beforeAll(async () => {
  api = await startApi({ BODY_LIMIT: "1kb" });
});
afterAll(() => api.close());

describe("REST errors", () => {
  it("answers an unknown route with 404 rest_no_route", async () => {
    const res = await fetch(`${api.url}/middleware/v1/nothing-here`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      code: "rest_no_route",
      message: "No route was found matching the URL and request method.",
      data: { status: 404 },
    });
  });

  it("answers malformed JSON with 400 rest_invalid_json", async () => {
    const res = await fetch(`${api.url}/middleware/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"login": "a",',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "rest_invalid_json", data: { status: 400 } });
  });

  it("answers a body over the limit with 413", async () => {
    const res = await fetch(`${api.url}/middleware/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "a", password: "x".repeat(2048) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "rest_payload_too_large", data: { status: 413 } });
  });

  it("names a missing field with rest_missing_callback_param and a bad one with rest_invalid_param", async () => {
    const missing = await fetch(`${api.url}/middleware/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "a" }),
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ code: "rest_missing_callback_param", message: "Missing parameter(s): password" });
    const invalid = await fetch(`${api.url}/middleware/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "a", password: 42 }),
    });
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ code: "rest_invalid_param", message: "Invalid parameter(s): password" });
  });
});

describe("the one error handler", () => {
  async function serve(path: string, error: unknown) {
    const app = express();
    app.get(path, () => {
      throw error;
    });
    app.use(errorHandler(createLogger("http-test", { LOG_DIR: "/tmp/mw-test-logs", LOG_LEVEL: "error", LOG_STDOUT: false })));
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    const res = await fetch(`http://127.0.0.1:${port}${path}`);
    const body = await res.text();
    server.close();
    return { status: res.status, body };
  }

  it("hides an unexpected error's message and stack behind a 500", async () => {
    const { status, body } = await serve("/middleware/v1/boom", new Error("secret internals at /srv/app.ts:12"));
    expect(status).toBe(500);
    expect(JSON.parse(body)).toEqual({ code: "rest_internal_error", message: "An unexpected error occurred.", data: { status: 500 } });
    expect(body).not.toMatch(/secret internals|app\.ts|at /);
  });

  it("renders the admin AJAX shape and the image API shape", async () => {
    const ajax = await serve("/admin-ajax", new AppError(403, "rest_forbidden", "Nope."));
    expect(ajax).toEqual({ status: 403, body: JSON.stringify({ success: false, data: "Nope." }) });
    const image = await serve("/api/image", new AppError(404, "not_found", "Serial number not found"));
    expect(image).toEqual({ status: 404, body: JSON.stringify({ error: "Serial number not found" }) });
  });
});

describe("health, readiness, metrics, OpenAPI", () => {
  it("reports liveness and readiness, degraded while a job schedule is missing from Redis", async () => {
    expect(await (await fetch(`${api.url}/healthz`)).json()).toEqual({ status: "ok" });
    const scheduled = SCHEDULED_JOBS.map((job) => job.name);
    for (const job of SCHEDULED_JOBS) await api.ctx.queues.get(job.queue).removeJobScheduler(job.name);
    // Alerts other test files of this process left undelivered would make it degraded too (that check has its own test).
    await api.ctx.prisma.operatorAlert.updateMany({ where: { status: "undelivered" }, data: { status: "dismissed" } });
    // Likewise credentials a sync test left refused (that check has its own test too).
    await api.ctx.prisma.syncCredentialFailure.deleteMany();
    const degraded = await fetch(`${api.url}/readyz`);
    expect(degraded.status).toBe(200);
    expect(await degraded.json()).toEqual({
      status: "degraded",
      checks: { database: { ok: true }, redis: { ok: true }, schedules: { ok: false, missing: scheduled }, alerts: { ok: true, undelivered: 0 }, credentials: { ok: true } },
    });
    expect(await (await fetch(`${api.url}/metrics`)).text()).toMatch(/mw_schedules_missing\{queue="inventory"\} 3/);

    await ensureSchedules(api.ctx.queues, [...QUEUE_NAMES], api.ctx.config);
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready", checks: { database: { ok: true }, redis: { ok: true }, schedules: { ok: true, missing: [] }, alerts: { ok: true, undelivered: 0 }, credentials: { ok: true } } });
    expect(await (await fetch(`${api.url}/metrics`)).text()).toMatch(/mw_schedules_missing\{queue="inventory"\} 0/);
    for (const job of SCHEDULED_JOBS) await api.ctx.queues.get(job.queue).removeJobScheduler(job.name);
  });

  it("answers 503 when Redis cannot be reached", async () => {
    const broken = await startApi({ REDIS_URL: "redis://127.0.0.1:1" });
    try {
      const res = await fetch(`${broken.url}/readyz`);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { checks: { database: { ok: boolean }; redis: { ok: boolean } } };
      expect(body.checks.database.ok).toBe(true);
      expect(body.checks.redis.ok).toBe(false);
    } finally {
      broken.ctx.redis.disconnect();
      await broken.close().catch(() => {});
    }
  });

  it("exposes request durations by route and job counts and durations by queue", async () => {
    // Other test files in this database slot run real report jobs, so the histogram is compared before and after.
    const bucket = (text: string, le: string) =>
      Number(new RegExp(`mw_job_duration_seconds_bucket\\{queue="reports",state="completed",le="${le}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    const before = await (await fetch(`${api.url}/metrics`)).text();
    await fetch(`${api.url}/middleware/v1/auth/me`);
    await api.ctx.queues.get("reports").add("metrics-probe", {}, { delay: 60_000 });
    const { recordJobDuration } = await import("@mw/platform");
    await recordJobDuration(api.ctx.redis, api.ctx.config.QUEUE_PREFIX, "reports", "completed", 0.3);
    const text = await (await fetch(`${api.url}/metrics`)).text();
    expect(text).toMatch(/mw_http_request_duration_seconds_count\{method="GET",route="\/middleware\/v1\/auth\/me",status="403"\} [1-9]/);
    expect(text).toMatch(/mw_jobs\{queue="reports",state="delayed"\} [1-9]/);
    expect(bucket(text, "0.5") - bucket(before, "0.5")).toBe(1);
    expect(bucket(text, "0.25") - bucket(before, "0.25")).toBe(0);
  });

  it("puts /metrics behind METRICS_TOKEN when one is set", async () => {
    const token = "metrics-token-7d1c9a0b5e";
    const guarded = await startApi({ METRICS_TOKEN: token });
    try {
      const anonymous = await fetch(`${guarded.url}/metrics`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
      expect(await anonymous.json()).toEqual({ code: "rest_forbidden", message: "A metrics token is required.", data: { status: 401 } });
      expect((await fetch(`${guarded.url}/metrics`, { headers: { authorization: "Bearer wrong-token-000000000" } })).status).toBe(401);
      const scraped = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toMatch(/^# HELP /m);
    } finally {
      await guarded.close();
    }
  });

  it("in production without METRICS_TOKEN, answers /metrics only to the addresses of METRICS_ALLOW (loopback by default)", async () => {
    const production = { NODE_ENV: "production", REQUIRE_HTTPS: "false" };
    const local = await startApi(production);
    try {
      expect((await fetch(`${local.url}/metrics`)).status).toBe(200);
    } finally {
      await local.close();
    }
    const elsewhere = await startApi({ ...production, METRICS_ALLOW: "10.0.0.0/8, 192.0.2.7" });
    try {
      const refused = await fetch(`${elsewhere.url}/metrics`);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ code: "rest_forbidden", message: "/metrics answers only the addresses of METRICS_ALLOW, or a caller with METRICS_TOKEN.", data: { status: 403 } });
    } finally {
      await elsewhere.close();
    }
    // Outside production it stays open, as before.
    expect((await fetch(`${api.url}/metrics`)).status).toBe(200);
  });

  it("refuses a METRICS_ALLOW that is not addresses", () => {
    expect(() => parseConfig({ ...testEnv(), METRICS_ALLOW: "everyone" })).toThrow(/METRICS_ALLOW: "everyone" is not an IP address/);
  });

  it("serves an OpenAPI 3.1 document built from the route schemas, and a docs page", async () => {
    const doc = (await (await fetch(`${api.url}/openapi.json`)).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>>;
    };
    expect(doc.openapi).toBe("3.1.0");
    const login = doc.paths["/middleware/v1/auth/login"]?.post;
    expect(login?.requestBody?.content["application/json"]?.schema.required).toEqual(["login", "password"]);
    expect(doc.paths["/middleware/v1/queue"]?.get).toBeDefined();
    const docs = await fetch(`${api.url}/docs/`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/swagger-ui/i);
  });
});

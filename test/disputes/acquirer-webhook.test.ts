import { createHash } from "node:crypto";
import { configSchema } from "@mw/platform";
import { acquirerSignature, sweepDisputeInbox } from "@mw/domains/disputes";
import { inboxSweepJob } from "@mw/domains/webhooks";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { closedPort, startApi, type TestApi } from "../support/api.ts";
import { failForGood, stallTwice } from "../support/failed-jobs.ts";
import { drainInProcess } from "../support/in-process-worker.ts";
import { logLines } from "../support/processes.ts";

let api: TestApi;
const URL_PATH = "/middleware/v1/webhooks/acquirer";

beforeAll(async () => {
  api = await startApi();
});
beforeEach(async () => {
  await api.ctx.queues.get("disputes").obliterate({ force: true });
});
afterAll(() => api.close());

let seq = 0;
function caseId(): string {
  seq += 1;
  return `C${process.pid}-${Date.now() % 1e6}-${seq}`;
}

function dispute(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    event_type: "dispute.created",
    timestamp: "2026-11-20T10:15:30Z",
    api_response: JSON.stringify({ case_id: caseId(), case_number: "N-1" }),
    request_payload: JSON.stringify({ mid: "00012345", auth_code: "AB12CD", transaction_date: "2026-11-01", amount: "49.90" }),
    remote_addr: "203.0.113.9",
    user_agent: "Acquirer/2.0",
    account_id: "12345",
    ...overrides,
  };
}

async function deliver(body: string | Record<string, unknown>, contentType = "application/json") {
  const res = await fetch(`${api.url}${URL_PATH}`, {
    method: "POST",
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function eventIdOf(body: Record<string, unknown>): string {
  return `acquirer_case_${(JSON.parse(body.api_response as string) as { case_id: string }).case_id}`;
}

describe("POST /webhooks/acquirer", () => {
  it("stores the audit row with the raw body's SHA-256, queues process-dispute, and answers 202", async () => {
    const payload = dispute();
    const raw = JSON.stringify(payload);
    const res = await deliver(raw);
    expect(res).toEqual({ status: 202, body: { success: true, message: "Webhook received and queued for processing.", webhook_id: expect.any(Number) } });
    const row = await api.ctx.prisma.webhookEvent.findUniqueOrThrow({ where: { id: res.body.webhook_id as number } });
    expect(row).toMatchObject({
      source: "acquirer",
      site_id: null,
      event_type: "dispute.created",
      event_id: eventIdOf(payload),
      payload: raw,
      payload_hash: createHash("sha256").update(raw).digest("hex"),
      remote_addr: expect.stringMatching(/127\.0\.0\.1/),
    });
    expect(row.received_at).toBeInstanceOf(Date);
    const job = await api.ctx.queues.get("disputes").getJob(`dispute.${eventIdOf(payload)}`);
    expect(job).toMatchObject({ name: "process-dispute", data: { webhook_id: row.id } });
  });

  it("accepts a body sent with another content type", async () => {
    expect((await deliver(dispute(), "text/plain")).status).toBe(202);
  });

  it.each([
    ["", "empty_payload"],
    ["   \n", "empty_payload"],
    ["{not json", "invalid_json"],
    ["[1, 2]", "invalid_json"],
    ['"a string"', "invalid_json"],
  ])("answers 400 for %j with %s", async (body, code) => {
    const res = await deliver(body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code, data: { status: 400 } });
  });

  describe("event_id derivation (spec 1, 4.5 rule 2)", () => {
    async function eventIdFor(payload: Record<string, unknown>): Promise<string | null> {
      const res = await deliver(payload);
      expect(res.status).toBe(202);
      return (await api.ctx.prisma.webhookEvent.findUniqueOrThrow({ where: { id: res.body.webhook_id as number } })).event_id;
    }

    it("(a) uses api_response.case_id", async () => {
      expect(await eventIdFor(dispute({ api_response: JSON.stringify({ case_id: 9876543, case_number: "X" }) }))).toBe("acquirer_case_9876543");
    });

    it("(b) falls back to api_response.case_number", async () => {
      const number = `NUM-${caseId()}`;
      expect(await eventIdFor(dispute({ api_response: JSON.stringify({ case_number: number }) }))).toBe(`acquirer_case_${number}`);
    });

    it("(c) falls back to timestamp + md5(event_type)", async () => {
      const payload = dispute({ api_response: JSON.stringify({ status: "ok" }), timestamp: `2026-11-${10 + (seq % 10)}T08:00:00Z`, event_type: `dispute.updated.${caseId()}` });
      const unix = Date.parse(payload.timestamp as string) / 1000;
      const md5 = createHash("md5").update(payload.event_type as string).digest("hex");
      expect(await eventIdFor(payload)).toBe(`acquirer_${unix}_${md5}`);
    });

    it("(d) has none, so every delivery is stored and queued", async () => {
      const payload = dispute({ api_response: "not json", timestamp: undefined });
      const first = await deliver(payload);
      const second = await deliver(payload);
      expect([first.status, second.status]).toEqual([202, 202]);
      expect(first.body.webhook_id).not.toBe(second.body.webhook_id);
      for (const res of [first, second]) {
        const id = res.body.webhook_id as number;
        expect((await api.ctx.prisma.webhookEvent.findUniqueOrThrow({ where: { id } })).event_id).toBeNull();
        expect(await api.ctx.queues.get("disputes").getJob(`dispute.webhook.${id}`)).toBeTruthy();
      }
    });
  });

  it("answers 200 to a repeated event and stores nothing again", async () => {
    const payload = dispute();
    expect((await deliver(payload)).status).toBe(202);
    const again = await deliver({ ...payload, user_agent: "retry" });
    expect(again).toEqual({ status: 200, body: { success: true, message: "Event already received." } });
    expect(await api.ctx.prisma.webhookEvent.count({ where: { event_id: eventIdOf(payload) } })).toBe(1);
  });

  it("gives 100 concurrent deliveries of one event one row and one job", async () => {
    const payload = dispute();
    const results = await Promise.all(Array.from({ length: 100 }, () => deliver(payload)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(99);
    expect(await api.ctx.prisma.webhookEvent.count({ where: { event_id: eventIdOf(payload) } })).toBe(1);
    const queue = api.ctx.queues.get("disputes");
    expect(await queue.getJobCounts("waiting")).toEqual({ waiting: 1 });
  });

  it("gives each of many concurrent deliveries its own row, webhook_id and job, whatever else arrives with it", async () => {
    // Deliveries that arrive together share a commit; each must still get back the id of its own row.
    const repeated = dispute();
    const payloads = Array.from({ length: 60 }, (_, i) => {
      if (i % 10 === 0) return repeated;
      if (i % 10 === 5) return dispute({ api_response: "{}", timestamp: undefined, user_agent: `no-event-id-${i}` });
      return dispute();
    });
    const results = await Promise.all(payloads.map((payload) => deliver(payload)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(5);
    const accepted = results.flatMap((r, i) => (r.status === 202 ? [{ id: r.body.webhook_id as number, payload: payloads[i]! }] : []));
    expect(accepted).toHaveLength(55);
    expect(new Set(accepted.map((a) => a.id)).size).toBe(55);
    const rows = await api.ctx.prisma.webhookEvent.findMany({ where: { id: { in: accepted.map((a) => a.id) } }, select: { id: true, payload: true } });
    const payloadById = new Map(rows.map((row) => [row.id, row.payload]));
    for (const { id, payload } of accepted) expect(payloadById.get(id)).toBe(JSON.stringify(payload));
    const jobs = await api.ctx.queues.get("disputes").getJobs(["waiting"]);
    expect(jobs.map((job) => job.data.webhook_id as number).sort((a, b) => a - b)).toEqual(accepted.map((a) => a.id).sort((a, b) => a - b));
  });

  it("answers 500 db_error when the audit row cannot be written, and queues nothing", async () => {
    await api.ctx.prisma.$executeRawUnsafe(
      `CREATE TRIGGER fail_webhooks_${process.pid} BEFORE INSERT ON webhook_events FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'disk full'`,
    );
    try {
      const res = await deliver(dispute());
      expect(res).toEqual({ status: 500, body: { code: "db_error", message: "The webhook could not be stored: database error.", data: { status: 500 } } });
      // Together, too: a failed batch fails every delivery in it.
      const together = await Promise.all(Array.from({ length: 20 }, () => deliver(dispute())));
      expect(together.map((r) => r.status)).toEqual(Array(20).fill(500));
      expect(await api.ctx.queues.get("disputes").getJobCounts("waiting")).toEqual({ waiting: 0 });
    } finally {
      await api.ctx.prisma.$executeRawUnsafe(`DROP TRIGGER fail_webhooks_${process.pid}`);
    }
  });
});

describe("outbox: a crash between the audit row and the enqueue", () => {
  async function strandedRow(eventId: string | null, ageMs: number, processed = false) {
    return api.ctx.prisma.webhookEvent.create({
      data: {
        source: "acquirer",
        event_type: "dispute.created",
        event_id: eventId,
        payload: "{}",
        payload_hash: "0".repeat(64),
        received_at: new Date(Date.now() - ageMs),
        processed_at: processed ? new Date() : null,
      },
    });
  }

  it("is recovered by the sweeper: unprocessed rows past the grace period get their job, once", async () => {
    // Rows earlier tests left unprocessed (their jobs obliterated) cross the grace period on a slow run; only this test's rows may count.
    await api.ctx.prisma.webhookEvent.updateMany({ where: { source: "acquirer", processed_at: null }, data: { processed_at: new Date() } });
    const stranded = await strandedRow(`acquirer_case_${caseId()}`, 120_000);
    const fresh = await strandedRow(`acquirer_case_${caseId()}`, 0);
    const processed = await strandedRow(`acquirer_case_${caseId()}`, 120_000, true);
    const ancient = await strandedRow(`acquirer_case_${caseId()}`, 2 * 86_400_000);
    const delivered = await deliver(dispute());
    await api.ctx.prisma.webhookEvent.update({ where: { id: delivered.body.webhook_id as number }, data: { received_at: new Date(Date.now() - 120_000) } });

    expect(await sweepDisputeInbox(api.ctx)).toEqual({ queued: 1, retried: 0 });
    const queue = api.ctx.queues.get("disputes");
    expect(await queue.getJob(`dispute.${stranded.event_id}`)).toMatchObject({ data: { webhook_id: stranded.id } });
    for (const row of [fresh, processed, ancient]) expect(await queue.getJob(`dispute.${row.event_id}`)).toBeUndefined();
    expect(await queue.getJobCounts("waiting")).toEqual({ waiting: 2 });
    expect(await sweepDisputeInbox(api.ctx)).toEqual({ queued: 0, retried: 0 });
  });

  it("retries through the sweeper a dispute whose job stalled twice, and leaves one that failed for good to an operator", async () => {
    await api.ctx.prisma.webhookEvent.updateMany({ where: { source: "acquirer", processed_at: null }, data: { processed_at: new Date() } });
    const queue = api.ctx.queues.get("disputes");
    const stalled = await strandedRow(`acquirer_case_${caseId()}`, 120_000);
    await queue.add("process-dispute", { webhook_id: stalled.id }, { jobId: `dispute.${stalled.event_id}`, attempts: 5 });
    await stallTwice(queue, `dispute.${stalled.event_id}`);
    const permanent = await strandedRow(`acquirer_case_${caseId()}`, 120_000);
    await queue.add("process-dispute", { webhook_id: permanent.id }, { jobId: `dispute.${permanent.event_id}`, attempts: 5 });
    await failForGood(queue, `dispute.${permanent.event_id}`);

    expect(await sweepDisputeInbox(api.ctx)).toEqual({ queued: 0, retried: 1 });
    expect(await queue.getJobState(`dispute.${stalled.event_id}`)).toBe("waiting");
    expect(await queue.getJob(`dispute.${stalled.event_id}`)).toMatchObject({ attemptsMade: 0, data: { webhook_id: stalled.id } });
    expect(await queue.getJobState(`dispute.${permanent.event_id}`)).toBe("failed");
  });

  it("reports rows past the sweep's 24-hour window on /metrics instead of leaving them silently", async () => {
    const abandoned = async () => Number(/mw_outbox_abandoned\{source="acquirer"\} (\d+)/.exec(await (await fetch(`${api.url}/metrics`)).text())?.[1]);
    const before = await abandoned();
    await strandedRow(`acquirer_case_${caseId()}`, 2 * 86_400_000);
    await strandedRow(`acquirer_case_${caseId()}`, 2 * 86_400_000, true);
    expect(await abandoned()).toBe(before + 1);
  });

  it("runs the inbox sweep from the webhooks queue, which the old cron's --webhook-max-jobs drains", async () => {
    await api.ctx.prisma.webhookEvent.updateMany({ where: { source: "acquirer", processed_at: null }, data: { processed_at: new Date() } });
    const stranded = await strandedRow(`acquirer_case_${caseId()}`, 120_000);
    const sweep = await api.ctx.queues.add(inboxSweepJob, {});
    expect(sweep.queueName).toBe("webhooks");

    // In this process: the drain's exit is platform/worker.test.ts's.
    const drain = await drainInProcess(["--worker-id", "sweep", "--webhook-max-jobs", "1"]);
    expect(logLines(drain, "queue drained")).toMatchObject([{ queue: "webhooks", completed: 1, failed: 0 }]);
    expect(await api.ctx.queues.get("disputes").getJob(`dispute.${stranded.event_id}`)).toMatchObject({ data: { webhook_id: stranded.id } });
  });

  it("answers 503 within the add timeout when Redis cannot be reached, with the row kept for the sweeper", async () => {
    const broken = await startApi({ REDIS_URL: `redis://127.0.0.1:${await closedPort()}` });
    try {
      const payload = dispute();
      const started = Date.now();
      const res = await fetch(`${broken.url}${URL_PATH}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(payload) });
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ code: "queue_unavailable" });
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await api.ctx.prisma.webhookEvent.findUnique({ where: { event_id: eventIdOf(payload) } })).toMatchObject({ processed_at: null });
    } finally {
      broken.ctx.redis.disconnect();
      await broken.close().catch(() => {});
    }
  });

  it("is recovered by a redelivery of the same event, which is queued rather than dropped", async () => {
    const payload = dispute();
    const row = await strandedRow(eventIdOf(payload), 0);
    const res = await deliver(payload);
    expect(res.status).toBe(200);
    expect(await api.ctx.queues.get("disputes").getJob(`dispute.${row.event_id}`)).toMatchObject({ data: { webhook_id: row.id } });
  });
});

describe("over-long members", () => {
  it.each([
    ["api_response.case_id", () => dispute({ api_response: JSON.stringify({ case_id: "C".repeat(5000) }) }), 64],
    ["api_response.case_number", () => dispute({ api_response: JSON.stringify({ case_number: "N".repeat(65) }) }), 64],
    ["event_type", () => dispute({ event_type: "e".repeat(101) }), 100],
    ["timestamp", () => dispute({ timestamp: "2".repeat(65) }), 64],
    ["account_id", () => dispute({ account_id: "1".repeat(65) }), 64],
  ])("answers 400 naming %s, before the database", async (member, payload, max) => {
    const body = payload();
    const before = await api.ctx.prisma.webhookEvent.count();
    const res = await deliver(body);
    expect(res).toMatchObject({ status: 400, body: { code: "rest_invalid_param", message: `Invalid parameter(s): ${member}`, data: { status: 400, params: { [member]: expect.stringContaining(`longer than ${max} characters`) } } } });
    expect(await api.ctx.prisma.webhookEvent.count()).toBe(before);
  });

  it("takes members at their longest", async () => {
    const longest = dispute({ api_response: JSON.stringify({ case_id: `${caseId()}-`.padEnd(64, "x"), case_number: "N".repeat(64) }), event_type: "e".repeat(100) });
    expect((await deliver(longest)).status).toBe(202);
  });
});

describe("the acquirer's signature (ACQUIRER_SIGNING_KEY)", () => {
  const KEY = "nmi-signing-key-0123456789abcdef";
  let signedApi: TestApi;
  beforeAll(async () => {
    signedApi = await startApi({ ACQUIRER_SIGNING_KEY: KEY });
  });
  afterAll(() => signedApi.close());

  async function post(raw: string, signature?: string) {
    const res = await fetch(`${signedApi.url}${URL_PATH}`, { method: "POST", headers: { "content-type": "application/json", ...(signature !== undefined && { "webhook-signature": signature }) }, body: raw });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const stored = (payload: Record<string, unknown>) => signedApi.ctx.prisma.webhookEvent.count({ where: { event_id: eventIdOf(payload) } });

  it("refuses an unsigned or wrongly signed delivery with 401 and stores nothing", async () => {
    const payload = dispute();
    const raw = JSON.stringify(payload);
    const refused = { status: 401, body: { code: "rest_forbidden", message: "Invalid or missing webhook signature.", data: { status: 401 } } };
    expect(await post(raw)).toEqual(refused);
    expect(await post(raw, `t=abc123,s=${acquirerSignature("another key", "abc123", Buffer.from(raw))}`)).toEqual(refused);
    expect(await post(raw, `t=abc123,s=${acquirerSignature(KEY, "abc123", Buffer.from(`${raw} `))}`)).toEqual(refused);
    expect(await post(raw, acquirerSignature(KEY, "abc123", Buffer.from(raw)))).toEqual(refused);
    expect(await stored(payload)).toBe(0);
  });

  it("accepts a delivery signed as NMI signs: t=<nonce>,s=<HMAC-SHA256 of nonce.body>", async () => {
    const payload = dispute();
    const raw = JSON.stringify(payload);
    const nonce = "f3c1e9a2b7d84c15";
    expect((await post(raw, `t=${nonce},s=${acquirerSignature(KEY, nonce, Buffer.from(raw))}`)).status).toBe(202);
    expect(await stored(payload)).toBe(1);
  });
});

describe("per-IP rate limiting", () => {
  it("is on by default, generously, and answers 429 past the limit", async () => {
    expect(configSchema.shape.WEBHOOK_RATE_LIMIT_PER_MINUTE.parse(undefined)).toBe(300);
    // The other tests' deliveries were counted too, under their far larger limit.
    const counted = await api.ctx.redis.keys(`${api.ctx.config.QUEUE_PREFIX}:ratelimit:acquirer:*`);
    if (counted.length) await api.ctx.redis.del(...counted);
    const limited = await startApi({ WEBHOOK_RATE_LIMIT_PER_MINUTE: "3" });
    try {
      const post = () => fetch(`${limited.url}${URL_PATH}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(dispute()) });
      const statuses = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await post()).status);
      expect(statuses).toEqual([202, 202, 202, 429]);
    } finally {
      await limited.close();
    }
  });
});

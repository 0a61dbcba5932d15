import { createRedis, decryptSecret } from "@mw/platform";
import { createUser } from "@mw/domains/identity";
import { gatewayKeyFor } from "@mw/domains/disputes";
import { purgeWebhookEvents } from "@mw/domains/webhooks";
import { Worker } from "bullmq";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { basicAuth, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { spawnEntry } from "../support/processes.ts";

let api: TestApi;
let auth: { authorization: string };
const ROOT = "/middleware/v1";

beforeAll(async () => {
  api = await startApi();
  const admin = await createUser(api.ctx, { login: uniqueLogin("dispadmin"), capabilities: ["manage_middleware"] });
  auth = { authorization: basicAuth(admin.login, admin.application_password) };
});
afterAll(() => api.close());

async function call(method: string, url: string, body?: unknown) {
  const res = await fetch(`${api.url}${ROOT}${url}`, {
    method,
    headers: { "content-type": "application/json", ...auth },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

let seq = 0;
function mid(): string {
  seq += 1;
  return `${(process.pid % 1000) * 100 + seq}${Date.now() % 1000}`;
}

describe("merchant accounts", () => {
  it("stores the MID without leading zeros and the security key encrypted, and never returns the key", async () => {
    const id = mid();
    const created = await call("POST", "/merchant-accounts", { mid: `000${id}`, security_key: "sk-live-abcdef123456", name: "Main MID" });
    expect(created).toMatchObject({ status: 201, body: { mid: id, name: "Main MID" } });
    expect(JSON.stringify(created.body)).not.toContain("sk-live");
    const row = await api.ctx.prisma.merchantAccount.findUniqueOrThrow({ where: { mid: id } });
    expect(row.security_key).not.toContain("sk-live");
    expect(decryptSecret(row.security_key, api.ctx.config.ENCRYPTION_KEY)).toBe("sk-live-abcdef123456");
    expect(await gatewayKeyFor(api.ctx, api.ctx.config.ENCRYPTION_KEY, `00${id}`)).toBe("sk-live-abcdef123456");

    const list = await call("GET", "/merchant-accounts?per_page=100");
    expect(JSON.stringify(list.body)).not.toContain("sk-live");
    expect((list.body.merchant_accounts as { mid: string }[]).some((m) => m.mid === id)).toBe(true);

    const duplicate = await call("POST", "/merchant-accounts", { mid: id, security_key: "other" });
    expect(duplicate).toMatchObject({ status: 409, body: { code: "merchant_exists" } });

    const updated = await call("PUT", `/merchant-accounts/${created.body.id}`, { security_key: "sk-rotated" });
    expect(updated).toMatchObject({ status: 200, body: { mid: id, name: "Main MID" } });
    expect(await gatewayKeyFor(api.ctx, api.ctx.config.ENCRYPTION_KEY, id)).toBe("sk-rotated");

    expect((await call("DELETE", `/merchant-accounts/${created.body.id}`)).status).toBe(200);
    expect((await call("DELETE", `/merchant-accounts/${created.body.id}`)).status).toBe(404);
    expect(await gatewayKeyFor(api.ctx, api.ctx.config.ENCRYPTION_KEY, id)).toBeNull();
  });

  it("refuses an invalid MID naming the field", async () => {
    const res = await call("POST", "/merchant-accounts", { mid: "12 34", security_key: "x" });
    expect(res).toMatchObject({ status: 400, body: { code: "rest_invalid_param", message: "Invalid parameter(s): mid" } });
  });

  it("adds an account with pnpm cli merchant:add, printing no key", async () => {
    const id = mid();
    const run = spawnEntry("packages/api/src/cli/main.ts", ["merchant:add", "--mid", `0${id}`, "--security-key", "sk-cli-secret", "--name", "CLI"]);
    expect((await run.exited()).code).toBe(0);
    expect(JSON.parse(run.output().trim())).toMatchObject({ mid: id, name: "CLI" });
    expect(run.output()).not.toContain("sk-cli-secret");
    expect(await gatewayKeyFor(api.ctx, api.ctx.config.ENCRYPTION_KEY, id)).toBe("sk-cli-secret");
  });
});

describe("POST /disputes/replay", () => {
  beforeEach(() => api.ctx.queues.get("disputes").obliterate({ force: true }));

  /** Ends the next waiting dispute job as a worker would (no gateway is needed for what these tests look at). */
  async function finishNext(id: string): Promise<void> {
    const worker = new Worker("disputes", null, { connection: createRedis(api.ctx.config.REDIS_URL, { blocking: true }), prefix: api.ctx.config.QUEUE_PREFIX, autorun: false });
    const job = await worker.getNextJob("tok-dispute", { block: false });
    expect(job?.id).toBe(id);
    await job!.moveToCompleted({ outcome: "no_match" }, "tok-dispute", false);
    await worker.close();
  }

  it("re-queues a received dispute under a fresh job id, by webhook id or case id, and skips it with why while a job of it is waiting", async () => {
    const caseId = `RP-${mid()}`;
    const delivered = await fetch(`${api.url}${ROOT}/webhooks/acquirer`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ event_type: "dispute.created", api_response: JSON.stringify({ case_id: caseId }) }),
    });
    const webhookId = ((await delivered.json()) as { webhook_id: number }).webhook_id;
    const original = `dispute.acquirer_case_${caseId}`;

    // The original job has not run yet: a replay would only run beside it.
    const early = await call("POST", "/disputes/replay", { webhook_id: webhookId });
    expect(early).toEqual({
      status: 202,
      body: { success: true, webhook_id: webhookId, job: { id: original, queue: "disputes", state: "waiting" }, queued: [], skipped: [{ webhook_id: webhookId, reason: `already in progress: job ${original} is waiting` }] },
    });
    await finishNext(original);

    const byWebhook = await call("POST", "/disputes/replay", { webhook_id: webhookId });
    expect(byWebhook).toMatchObject({ status: 202, body: { success: true, webhook_id: webhookId, job: { queue: "disputes", state: "waiting" }, skipped: [] } });
    const first = (byWebhook.body.job as { id: string }).id;
    expect(byWebhook.body.queued).toEqual([{ webhook_id: webhookId, job_id: first }]);
    // The replay waits: a second one is skipped, naming it.
    expect((await call("POST", "/disputes/replay", { case_id: caseId })).body).toMatchObject({ queued: [], skipped: [{ webhook_id: webhookId, reason: `already in progress: job ${first} is waiting` }] });
    await finishNext(first);

    const byCase = await call("POST", "/disputes/replay", { case_id: caseId });
    expect(byCase.status).toBe(202);
    const ids = [first, (byCase.body.job as { id: string }).id];
    expect(byCase.body.queued).toEqual([{ webhook_id: webhookId, job_id: ids[1] }]);
    expect(ids[0]).toMatch(new RegExp(`^dispute\\.acquirer_case_${caseId}\\.replay\\.\\d+$`));
    expect(new Set([original, ...ids]).size).toBe(3);
    for (const id of ids) {
      expect(await api.ctx.queues.get("disputes").getJob(id)).toMatchObject({ name: "process-dispute", data: { webhook_id: webhookId } });
    }

    // The replays are in the dispute's job index: GET /disputes counts them and shows the newest.
    const listed = await call("GET", `/disputes?case_id=${caseId}`);
    expect(listed.status).toBe(200);
    expect(listed.body.disputes).toEqual([
      expect.objectContaining({ webhook_id: webhookId, case_id: caseId, outcome: null, state: "pending", jobs: 3, job_id: ids[1], job_state: "waiting" }),
    ]);
    expect((await call("GET", `/disputes?case_id=${caseId}&state=failed`)).body.disputes).toEqual([]);
  });

  it("answers 404 for an unknown dispute and 400 for a body naming neither", async () => {
    expect((await call("POST", "/disputes/replay", { webhook_id: 99_999_999 })).status).toBe(404);
    expect((await call("POST", "/disputes/replay", { case_id: "never-seen" })).status).toBe(404);
    expect((await call("POST", "/disputes/replay", {})).status).toBe(400);
  });
});

describe("POST /queue/{id}/process", () => {
  const queueName = "reports";
  beforeEach(() => api.ctx.queues.get(queueName).obliterate({ force: true }));

  async function failJob(id: string): Promise<void> {
    const worker = new Worker(queueName, null, { connection: createRedis(api.ctx.config.REDIS_URL, { blocking: true }), prefix: api.ctx.config.QUEUE_PREFIX, autorun: false });
    const job = await worker.getNextJob("tok", { block: false });
    expect(job?.id).toBe(id);
    await job!.moveToFailed(new Error("boom"), "tok", false);
    await worker.close();
  }

  it("retries a failed job, promotes a delayed one and puts a waiting one first", async () => {
    const queue = api.ctx.queues.get(queueName);
    await queue.add("probe", {}, { jobId: "probe.failed", attempts: 1 });
    await failJob("probe.failed");
    const retried = await call("POST", "/queue/probe.failed/process");
    expect(retried).toEqual({ status: 200, body: { success: true, job: { id: "probe.failed", queue: queueName, state: "waiting" } } });

    await queue.add("probe", {}, { jobId: "probe.delayed", delay: 3_600_000 });
    expect((await call("POST", "/queue/probe.delayed/process")).body).toEqual({ success: true, job: { id: "probe.delayed", queue: queueName, state: "waiting" } });

    await queue.add("probe", {}, { jobId: "probe.last" });
    const first = await call("POST", "/queue/probe.last/process");
    expect(first.body).toEqual({ success: true, job: { id: "probe.last", queue: queueName, state: "waiting" } });
    // Ascending order is the order workers take jobs in.
    const waiting = await queue.getJobs(["waiting"], 0, 0, true);
    expect(waiting[0]?.id).toBe("probe.last");
  });

  it("answers 404 for an unknown job and 409 for a completed one", async () => {
    expect((await call("POST", "/queue/no.such.job/process")).status).toBe(404);
    const queue = api.ctx.queues.get(queueName);
    await queue.add("probe", {}, { jobId: "probe.done" });
    const worker = new Worker(queueName, null, { connection: createRedis(api.ctx.config.REDIS_URL, { blocking: true }), prefix: api.ctx.config.QUEUE_PREFIX, autorun: false });
    const job = await worker.getNextJob("tok2", { block: false });
    await job!.moveToCompleted("ok", "tok2", false);
    await worker.close();
    const res = await call("POST", "/queue/probe.done/process");
    expect(res).toMatchObject({ status: 409, body: { code: "job_not_processable", data: { status: 409, state: "completed" } } });
  });
});

describe("list totals, summed from the counts kept per day (issue 44)", () => {
  const DAY = 86_400_000;
  // Days of this run's own, long past: no other file's rows fall on them.
  const day = new Date(Date.UTC(2001, 0, 1) + (process.pid % 3000) * DAY);
  const next = new Date(day.getTime() + DAY);
  const ymd = (date: Date) => date.toISOString().slice(0, 10);
  const at = (date: Date, hours: number) => new Date(date.getTime() + hours * 3_600_000);
  const sqlTime = (date: Date) => date.toISOString().slice(0, 19).replace("T", " ");
  const oneDay = `from=${ymd(day)}&to=${ymd(day)}`;
  const twoDays = `from=${ymd(day)}&to=${ymd(next)}`;
  const total = async (path: string) => {
    const res = await call("GET", path);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.total;
  };

  it("GET /disputes: stays right through inserts, outcome and date changes, deletes, plain SQL and retention, and is read from webhook_event_counts", async () => {
    const { prisma } = api.ctx;
    const tag = `T${process.pid % 100_000}-${Date.now() % 100_000_000}`;
    const event = (n: number, received_at: Date, outcome: string | null, source = "acquirer") =>
      prisma.webhookEvent.create({
        data: { source, event_type: "dispute.created", event_id: `${source}_case_${tag}-${n}`, payload: "{}", payload_hash: "0".repeat(64), received_at, processed_at: outcome ? received_at : null, outcome },
        select: { id: true },
      });
    const linked = await event(1, at(day, 0), "linked");
    await event(2, at(day, 12), "linked");
    const noMatch = await event(3, at(day, 23.99), "no_match");
    const open = await event(4, at(day, 10), null);
    await event(5, at(day, 11), null, "products");
    await event(6, at(next, 1), "linked");

    expect(await total(`/disputes?${oneDay}`)).toBe(4);
    expect(await total(`/disputes?${twoDays}`)).toBe(5);
    expect(await total(`/disputes?to=${ymd(day)}`)).toBe(4);
    expect(await total(`/disputes?${oneDay}&state=matched`)).toBe(2);
    expect(await total(`/disputes?${oneDay}&state=unmatched`)).toBe(1);
    expect(await total(`/disputes?${oneDay}&state=pending`)).toBe(1);
    expect(await total(`/disputes?${twoDays}&outcome=linked`)).toBe(3);
    expect(await total(`/disputes?${oneDay}&state=matched&outcome=no_match`)).toBe(0);
    expect(await total(`/disputes?${twoDays}&case_id=${tag}-1`)).toBe(1);

    // The kept counts are what answers: a count written beside the rows shows in the total.
    await prisma.$executeRaw`INSERT INTO webhook_event_counts (source, day, outcome, open, slot, events) VALUES ('acquirer', ${ymd(day)}, 'linked', 0, 0, 5)
      ON DUPLICATE KEY UPDATE events = events + 5`;
    expect(await total(`/disputes?${oneDay}&state=matched`)).toBe(7);
    await prisma.$executeRaw`UPDATE webhook_event_counts SET events = events - 5 WHERE source = 'acquirer' AND day = ${ymd(day)} AND outcome = 'linked' AND open = 0 AND slot = 0`;

    // Processing ends, a delivery moves to the next day, another goes.
    await prisma.webhookEvent.update({ where: { id: open.id }, data: { processed_at: at(day, 10), outcome: "failed" } });
    expect(await total(`/disputes?${oneDay}&state=pending`)).toBe(0);
    expect(await total(`/disputes?${oneDay}&state=failed`)).toBe(1);
    await prisma.webhookEvent.update({ where: { id: linked.id }, data: { received_at: at(next, 2) } });
    expect(await total(`/disputes?${oneDay}`)).toBe(3);
    expect(await total(`/disputes?${twoDays}&state=matched`)).toBe(3);
    await prisma.webhookEvent.delete({ where: { id: noMatch.id } });
    expect(await total(`/disputes?${oneDay}&state=unmatched`)).toBe(0);
    expect(await total(`/disputes?${oneDay}`)).toBe(2);

    // Written by plain SQL, as an import or a restore would.
    await prisma.$executeRaw`INSERT INTO webhook_events (source, event_type, event_id, payload, payload_hash, received_at)
      VALUES ('acquirer', 'dispute.created', ${`acquirer_case_${tag}-7`}, '{}', ${"0".repeat(64)}, ${sqlTime(at(day, 15))})`;
    expect(await total(`/disputes?${oneDay}`)).toBe(3);
    expect(await total(`/disputes?${oneDay}&state=pending`)).toBe(1);

    // Retention deletes the processed deliveries of both days in batches; the open one stays.
    const days = Math.floor((Date.now() - next.getTime() - DAY) / DAY);
    const purged = await purgeWebhookEvents({ prisma, config: { ...api.ctx.config, RETENTION_WEBHOOK_EVENTS_DAYS: days, RETENTION_BATCH_SIZE: 2 }, log: api.ctx.logger });
    expect(purged.webhook_events).toBeGreaterThanOrEqual(4);
    expect(await total(`/disputes?${twoDays}`)).toBe(1);
    expect(await total(`/disputes?${twoDays}&state=pending`)).toBe(1);
    const [kept] = await prisma.$queryRaw<{ n: number | bigint | null }[]>`SELECT SUM(events) AS n FROM webhook_event_counts WHERE day BETWEEN ${ymd(day)} AND ${ymd(next)}`;
    expect(Number(kept!.n)).toBe(2);
  });

  interface CaseList {
    path: string;
    create: (caseId: string, date: Date, orderNumber?: string) => Promise<{ id: number }>;
    move: (id: number, date: Date) => Promise<unknown>;
    remove: (id: number) => Promise<unknown>;
    insertBySql: (caseId: string, date: Date) => Promise<unknown>;
    /** Its name in dispute_case_counts. */
    list: string;
  }

  async function checkCaseTotals(list: CaseList) {
    const tag = `T${process.pid % 100_000}-${Date.now() % 100_000_000}`;
    const first = await list.create(`${tag}-1`, at(day, 0));
    await list.create(`${tag}-2`, at(day, 12), tag);
    const last = await list.create(`${tag}-3`, at(day, 23.99));
    await list.create(`${tag}-4`, at(next, 1));
    expect(await total(`${list.path}?${oneDay}`)).toBe(3);
    expect(await total(`${list.path}?${twoDays}`)).toBe(4);
    expect(await total(`${list.path}?from=${ymd(next)}&to=${ymd(next)}`)).toBe(1);
    expect(await total(`${list.path}?to=${ymd(day)}`)).toBe(3);
    expect(await total(`${list.path}?${twoDays}&case_id=${tag}-3`)).toBe(1);
    expect(await total(`${list.path}?${oneDay}&order_number=${tag}`)).toBe(1);

    // The kept counts are what answers: a count written beside the rows shows in the total.
    await api.ctx.prisma.$executeRaw`INSERT INTO dispute_case_counts (list, day, slot, cases) VALUES (${list.list}, ${ymd(day)}, 0, 5) ON DUPLICATE KEY UPDATE cases = cases + 5`;
    expect(await total(`${list.path}?${oneDay}`)).toBe(8);
    await api.ctx.prisma.$executeRaw`UPDATE dispute_case_counts SET cases = cases - 5 WHERE list = ${list.list} AND day = ${ymd(day)} AND slot = 0`;

    await list.move(first.id, at(next, 3));
    expect(await total(`${list.path}?${oneDay}`)).toBe(2);
    expect(await total(`${list.path}?${twoDays}`)).toBe(4);
    await list.remove(last.id);
    expect(await total(`${list.path}?${oneDay}`)).toBe(1);
    await list.insertBySql(`${tag}-5`, at(day, 21));
    expect(await total(`${list.path}?${oneDay}`)).toBe(2);
    expect(await total(`${list.path}?${twoDays}`)).toBe(4);
  }

  it("GET /disputes/linkages: stays right through inserts, date changes, deletes and plain SQL, and is read from dispute_case_counts", async () => {
    const { prisma } = api.ctx;
    await checkCaseTotals({
      path: "/disputes/linkages",
      create: (case_id, linked_at, order_number) =>
        prisma.disputeLinkage.create({ data: { case_id, mid: "1", gateway_transaction_id: "T1", order_number, match_strategy: "auth_code", acquirer_data: "{}", gateway_data: "{}", linked_at }, select: { id: true } }),
      move: (id, linked_at) => prisma.disputeLinkage.update({ where: { id }, data: { linked_at } }),
      remove: (id) => prisma.disputeLinkage.delete({ where: { id } }),
      insertBySql: (caseId, date) =>
        prisma.$executeRaw`INSERT INTO dispute_linkages (case_id, mid, gateway_transaction_id, match_strategy, acquirer_data, gateway_data, linked_at)
          VALUES (${caseId}, '1', 'T1', 'auth_code', '{}', '{}', ${sqlTime(date)})`,
      list: "linkages",
    });
  });

  it("GET /disputes/chargebacks: stays right through inserts, date changes, deletes and plain SQL, and is read from dispute_case_counts", async () => {
    const { prisma } = api.ctx;
    await checkCaseTotals({
      path: "/disputes/chargebacks",
      create: (case_id, created_at, order_number) => prisma.chargeback.create({ data: { case_id, mid: "1", order_number, acquirer_data: "{}", action_log: "[]", created_at }, select: { id: true } }),
      move: (id, created_at) => prisma.chargeback.update({ where: { id }, data: { created_at } }),
      remove: (id) => prisma.chargeback.delete({ where: { id } }),
      // A session in another time zone: the count still goes to the row's UTC day, the one the list filters by.
      insertBySql: (caseId, date) =>
        prisma.$transaction([
          prisma.$executeRaw`SET time_zone = '+05:00'`,
          prisma.$executeRaw`INSERT INTO chargebacks (case_id, mid, acquirer_data, action_log, created_at) VALUES (${caseId}, '1', '{}', '[]', CONVERT_TZ(${sqlTime(date)}, '+00:00', '+05:00'))`,
          prisma.$executeRaw`SET time_zone = '+00:00'`,
        ]),
      list: "chargebacks",
    });
  });
});

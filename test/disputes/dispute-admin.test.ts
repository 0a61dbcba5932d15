import { createRedis, decryptSecret } from "@mw/platform";
import { createUser } from "@mw/domains/identity";
import { gatewayKeyFor } from "@mw/domains/disputes";
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

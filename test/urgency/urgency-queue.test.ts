import { OPTIONS } from "@mw/domains/options";
import { urgencyAnalysisJobId } from "@mw/domains/urgency";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FakeGemini } from "../fakes/gemini.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { drainInProcess, startInProcessWorker } from "../support/in-process-worker.ts";
import { logged, logLines, spawnEntry } from "../support/processes.ts";
import { analysisAnswer, entrySignal, newTicketId, postSignal, SECURITY_KEY } from "../support/tickets.ts";
import { until } from "../support/wait.ts";

const PROVIDER_KEY = "AIzaFAKE-queue-key-77d0";
let gemini: FakeGemini;
let api: TestApi;
let env: Record<string, string>;
/** What each test started; afterEach stops them. */
const workers: { stop(): Promise<void> }[] = [];

async function resetOptions(changes: Record<string, unknown> = {}) {
  await api.ctx.options.set({ ...Object.fromEntries(Object.keys(OPTIONS).map((name) => [name, null])), ai_security_key: SECURITY_KEY, ai_max_retries: 1, urgency_gate_seconds: 0, urgency_max_per_run: 1000, ...changes });
}

/** The worker's runtime serving the urgency queue in this process. */
async function startWorker(extra: Record<string, string> = {}) {
  const worker = await startInProcessWorker({ ...env, WORKER_QUEUES: "urgency", ...extra });
  workers.push(worker);
  return worker;
}

/** A worker process, for a test that kills one. */
function spawnWorker(extra: Record<string, string> = {}) {
  const worker = spawnEntry("packages/worker/src/main.ts", [], { ...env, WORKER_QUEUES: "urgency", ...extra });
  workers.push({
    async stop() {
      worker.child.kill("SIGKILL");
      await worker.exited();
    },
  });
  return worker;
}

/** `pnpm worker --drain --urgency-max-jobs N`, the spec's cron entry, run in this process (the drain process's exit is platform/worker.test.ts's). */
async function drain(max: number, extra: Record<string, string> = {}) {
  return drainInProcess(["--urgency-max-jobs", String(max)], { ...env, ...extra });
}

const queue = () => api.ctx.queues.get("urgency");
const row = (ticketId: number) => api.ctx.prisma.urgencyQueueEntry.findUniqueOrThrow({ where: { ticket_id: ticketId } });
const snapshotCount = (ticketIds: number[]) => api.ctx.prisma.aiSnapshot.count({ where: { ticket_id: { in: ticketIds } } });

beforeAll(async () => {
  gemini = await new FakeGemini(PROVIDER_KEY).start();
  env = { AI_BASE_URL: gemini.url, AI_API_KEY: PROVIDER_KEY, AI_RETRY_BASE_MS: "10" };
  api = await startApi(env);
});

beforeEach(async () => {
  gemini.reset();
  gemini.respond = () => analysisAnswer(40);
  await queue().obliterate({ force: true });
  await resetOptions();
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

afterAll(async () => {
  await queue().obliterate({ force: true });
  await resetOptions({ ai_security_key: null, ai_max_retries: null, urgency_gate_seconds: null, urgency_max_per_run: null });
  await api.close();
  await gemini.stop();
});

describe("the cron view (pnpm worker --drain --urgency-max-jobs N)", () => {
  it("analyses at most N tickets and exits; without a provider key the rules engine scores them", async () => {
    const ids = [newTicketId(), newTicketId(), newTicketId()];
    for (const id of ids) await postSignal(api, entrySignal(id, "M", "Our website is down, all customers see a 500 error and we are losing orders!"));
    await drain(2, { AI_API_KEY: "" });
    const snapshots = await api.ctx.prisma.aiSnapshot.findMany({ where: { ticket_id: { in: ids } } });
    expect(snapshots).toHaveLength(2);
    expect(snapshots.map((snapshot) => snapshot.model_used)).toEqual(["rules", "rules"]);
    expect(snapshots[0]!.urgency).toBe("CRITICAL");
    expect(gemini.calls).toHaveLength(0);
  });

  it("counts a failed run, retries it, skips the ticket after five and keeps the row; a new entry re-queues it", async () => {
    gemini.respond = () => "not JSON at all";
    const id = newTicketId();
    await postSignal(api, entrySignal(id, "M", "The shop is slow."));
    for (let failures = 1; failures <= 5; failures += 1) {
      await drain(1);
      expect(await row(id)).toMatchObject({ processed: false, failures });
      const job = (await queue().getJob(urgencyAnalysisJobId(id)))!;
      if (failures < 5) {
        expect(await job.getState()).toBe("delayed");
        await job.promote();
      } else {
        expect(await job.getState()).toBe("completed");
        expect(job.returnvalue).toMatchObject({ skipped: "too_many_failures", failures: 5 });
      }
    }
    expect((await row(id)).last_error).toMatch(/AI request failed after retries and the fallback models/);
    const skipped = await api.ctx.prisma.urgencyQueueEntry.count({ where: { ticket_id: id, failures: 5, processed: false } });
    expect(skipped).toBe(1);

    gemini.respond = () => analysisAnswer(40);
    await postSignal(api, entrySignal(id, "M", "Any news?"));
    expect(await row(id)).toMatchObject({ processed: false, failures: 0, last_error: null });
    await drain(1);
    expect(await row(id)).toMatchObject({ processed: true, failures: 0 });
    expect(await snapshotCount([id])).toBe(1);
    // Seven worker processes start and drain one after another: on a loaded 2-core machine each start takes seconds.
  }, 120_000);
});

describe("history (the plugin's configure.php --backfill-days, issue 31)", () => {
  it("stores a signal marked backfill without owing or queuing an analysis; a live entry after it is analysed as usual", async () => {
    const id = newTicketId();
    const history = { ...entrySignal(id, "M", "An old question from last week."), backfill: true };
    expect(await postSignal(api, history)).toEqual({ status: 200, body: { success: true, signal: "threadentry.created", changed: true, queued: false } });
    expect(await api.ctx.prisma.ticketEntry.count({ where: { ticket_id: id } })).toBe(1);
    expect(await api.ctx.prisma.urgencyQueueEntry.findUnique({ where: { ticket_id: id } })).toBeNull();
    expect(await queue().getJob(urgencyAnalysisJobId(id))).toBeUndefined();
    // A new entry after it is live: analysed as usual.
    expect((await postSignal(api, entrySignal(id, "M", "And it is still broken today."))).status).toBe(202);
    expect((await row(id)).processed).toBe(false);
  });
});

describe("limits (design 10.3 and 10.8)", () => {
  it("gives a burst of entries on one ticket one trailing analysis at the gate's end, which reads them all", async () => {
    await resetOptions({ urgency_gate_seconds: 3 });
    const worker = await startWorker();
    await worker.waitFor(logged("workers started"));
    const id = newTicketId();
    for (let n = 1; n <= 10; n += 1) await postSignal(api, entrySignal(id, "M", `Message ${n}: the shop is slow.`));
    await until(async () => (await row(id)).processed, () => `the ticket to be analysed; worker output:\n${worker.output().slice(-2000)}`, 15_000);
    const runs = await api.ctx.prisma.aiHistory.findMany({ where: { ticket_id: id, event: "analysis" }, orderBy: { id: "asc" } });
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs.length).toBeLessThanOrEqual(2);
    expect((runs.at(-1)!.detail as { entries: number }).entries).toBe(10);
    // The gate runs from the first analysis's start, which comes just after its job's first start (a new ticket has
    // no gate to wait for); the row keeps the last analysis's start. Starts, not ends: how long the first (cold)
    // analysis takes on a loaded machine does not matter.
    if (runs.length === 2) {
      const firstStart = Date.parse(String(logLines(worker, "job started").find((line) => line.job_id === urgencyAnalysisJobId(id))!.timestamp));
      expect((await row(id)).analysed_at!.getTime() - firstStart).toBeGreaterThanOrEqual(3_000);
    }
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(await api.ctx.prisma.aiHistory.count({ where: { ticket_id: id, event: "analysis" } })).toBe(runs.length);
  });

  it("runs at most urgency_max_per_run analyses a minute across two worker processes", async () => {
    await resetOptions({ urgency_max_per_run: 2 });
    // The limiter's window began with the earlier tests' analyses: start a fresh one.
    await api.ctx.redis.del(`${api.ctx.config.QUEUE_PREFIX}:urgency:limiter`);
    const pair = await Promise.all([startWorker(), startWorker()]);
    await Promise.all(pair.map((worker) => worker.waitFor(logged("workers started"))));
    const ids = Array.from({ length: 5 }, () => newTicketId());
    for (const id of ids) await postSignal(api, entrySignal(id, "M", "The shop is slow."));
    await until(async () => (await snapshotCount(ids)) >= 2, () => "two analyses");
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    expect(await snapshotCount(ids)).toBe(2);
    expect(await queue().getWaitingCount()).toBe(3);
    await queue().removeGlobalRateLimit();
  });

  it("loses nothing and duplicates nothing when a worker is killed mid-analysis", async () => {
    const fastRecovery = { WORKER_LOCK_DURATION_MS: "2000", WORKER_STALLED_INTERVAL_MS: "1000", AI_TIMEOUT_MS: "60000" };
    gemini.script({ fault: "hang" });
    const first = spawnWorker(fastRecovery);
    await first.waitFor(logged("workers started"));
    const id = newTicketId();
    await postSignal(api, entrySignal(id, "M", "The shop is slow."));
    await until(() => gemini.calls.length === 1, () => "the first worker to ask the provider");
    first.child.kill("SIGKILL");
    await first.exited();
    // The next worker need not be a process: taking the stalled job back is BullMQ's, from Redis.
    const second = await startWorker(fastRecovery);
    await until(async () => (await row(id)).processed, () => `the second worker to finish the analysis; output:\n${second.output().slice(-2000)}`, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(await snapshotCount([id])).toBe(1);
    expect(await api.ctx.prisma.aiHistory.count({ where: { ticket_id: id, event: "analysis" } })).toBe(1);
  });
});

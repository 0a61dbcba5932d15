import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConfigError, createRedis, parseConfig, Queues, type RedisClient } from "@mw/platform";
import { alertEmailJob, chatMessageJob, healthPingJob } from "@mw/domains/notifications";
import { parseWorkerArgs, UsageError } from "@mw/worker/runtime/args";
import type { Job, Queue } from "bullmq";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HttpSink } from "../fakes/http-sink.ts";
import { FakeSmtp } from "../fakes/smtp.ts";
import { testEnv } from "../support/env.ts";
import { drainInProcess, startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { logged, logLines, spawnEntry, type Spawned } from "../support/processes.ts";
import { settled, until } from "../support/wait.ts";

// The worker's runtime against real Redis, with this vitest worker's queue
// prefix; nothing about BullMQ is mocked. What jobs do runs in this process;
// what only the process shows (signals, a kill, drain's exit, exit codes) runs
// the real entry point as a child process.
const ENTRY = "packages/worker/src/main.ts";
const USER_AGENT = /^Middleware\/\d+\.\d+\.\d+$/;
/** Short lock and stalled-check periods so a killed worker's job comes back within seconds. */
const FAST_STALL = { WORKER_LOCK_DURATION_MS: "2000", WORKER_STALLED_INTERVAL_MS: "1000" };

let redis: RedisClient;
let queues: Queues;
let queue: Queue;
let sink: HttpSink;
const children: Spawned[] = [];
const inProcess: InProcessWorker[] = [];

interface Proc extends Spawned {
  /** What the child wrote to stderr only (output() mixes both streams). */
  stderr(): string;
}

function spawnWorker(env: Record<string, string> = {}, args: string[] = []): Proc {
  const proc = spawnEntry(ENTRY, args, { WORKER_QUEUES: "notifications", ...env });
  children.push(proc);
  let stderr = "";
  proc.child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return { ...proc, stderr: () => stderr };
}

async function startWorker(env: Record<string, string> = {}): Promise<InProcessWorker> {
  const worker = await startInProcessWorker({ WORKER_QUEUES: "notifications", ...env });
  inProcess.push(worker);
  return worker;
}

/** Redis connections on which a BullMQ worker of this prefix waits for notifications jobs (BullMQ names them `<prefix>:<base64 queue>`). */
async function blockingConnections(): Promise<number> {
  // BullMQ names a worker's connections `<prefix>:<base64 queue>`, followed by `:w:<worker name>` when the worker has one.
  const name = new RegExp(`name=${process.env.QUEUE_PREFIX}:${Buffer.from("notifications").toString("base64")}[ :]`);
  const list = (await redis.call("CLIENT", "LIST")) as string;
  return list.split("\n").filter((line) => name.test(line)).length;
}

function alive(proc: Spawned): boolean {
  return proc.child.exitCode === null && proc.child.signalCode === null;
}

beforeAll(() => {
  redis = createRedis(process.env.REDIS_URL!);
  queues = new Queues(redis, process.env.QUEUE_PREFIX!);
  queue = queues.get("notifications");
});

beforeEach(async () => {
  await queue.obliterate({ force: true });
  sink = await new HttpSink().start();
});

afterEach(async () => {
  for (const worker of inProcess.splice(0)) await worker.stop();
  for (const proc of children.splice(0)) {
    if (alive(proc)) {
      proc.child.kill("SIGKILL");
      await proc.exited();
    }
  }
  await sink.stop();
});

afterAll(async () => {
  await queue.obliterate({ force: true });
  await queues.close();
  await redis.quit();
});

describe("worker processes jobs", () => {
  it("GETs a health-ping URL once with the Middleware user agent, and POSTs a chat message as JSON to CHAT_WEBHOOK_URL", async () => {
    const worker = await startWorker({ CHAT_WEBHOOK_URL: `${sink.url}/hooks/abc` });
    await worker.waitFor(logged("workers started"));

    const ping = await queues.add(healthPingJob, { url: `${sink.url}/ping?site=7`, site_id: 7 });
    const pinged = await settled(queue, ping, worker);
    expect(await pinged.getState()).toBe("completed");
    expect(pinged.returnvalue).toEqual({ status: 200 });
    expect(pinged.attemptsMade).toBe(1);
    expect(sink.requests).toHaveLength(1);
    const get = sink.requests[0]!;
    expect(get.method).toBe("GET");
    expect(get.url).toBe("/ping?site=7");
    expect(get.headers["user-agent"]).toMatch(USER_AGENT);

    const chat = await queues.add(chatMessageJob, { text: "Order 42 shipped ✓" });
    const chatted = await settled(queue, chat, worker);
    expect(await chatted.getState()).toBe("completed");
    expect(sink.requests).toHaveLength(2);
    const post = sink.requests[1]!;
    expect(post.method).toBe("POST");
    expect(post.url).toBe("/hooks/abc");
    expect(post.headers["content-type"]).toMatch(/^application\/json/);
    expect(post.headers["user-agent"]).toMatch(USER_AGENT);
    expect(JSON.parse(post.body)).toEqual({ text: "Order 42 shipped ✓" });

    expect(logLines(worker, "job completed").map((line) => line.job_id)).toEqual([ping.id, chat.id]);
  });

  it("fails a bad payload or an unknown job name at once, without retrying", async () => {
    const worker = await startWorker();
    await worker.waitFor(logged("workers started"));

    const bad = await queue.add("health-ping", { url: "not a url" });
    const unknown = await queue.add("no-such-job", { url: sink.url });
    const [badDone, unknownDone] = await Promise.all([settled(queue, bad, worker), settled(queue, unknown, worker)]);

    expect(await badDone.getState()).toBe("failed");
    expect(badDone.attemptsMade).toBe(1);
    expect(badDone.failedReason).toMatch(/^invalid payload: url: /);
    expect(await unknownDone.getState()).toBe("failed");
    expect(unknownDone.attemptsMade).toBe(1);
    expect(unknownDone.failedReason).toBe('no processor for job "no-such-job" in queue "notifications"');
    // A retryable failure would have left them delayed with attempts to spare; nothing reached the sink.
    expect(await queue.getJobCounts("failed", "delayed", "waiting", "active")).toEqual({ failed: 2, delayed: 0, waiting: 0, active: 0 });
    expect(sink.requests).toHaveLength(0);
    expect(logLines(worker, "job failed").map((line) => line.permanent)).toEqual([true, true]);
  });

  it("fails a forged job (a key its definition does not declare, or a wrong type) at once, without running its processor", async () => {
    const smtp = await new FakeSmtp().start();
    try {
      const worker = await startWorker({ CHAT_WEBHOOK_URL: `${sink.url}/hooks/ours`, SMTP_URL: smtp.url, MAIL_FROM: "mw@agency.example", ALERT_EMAIL_TO: "ops@agency.example" });
      await worker.waitFor(logged("workers started"));

      // Written straight into the queue, as Bull Board's add-job did: each would make the worker call out if it ran.
      const forged = [
        await queue.add(chatMessageJob.name, { text: "hello", webhook_url: `${sink.url}/hooks/theirs` }),
        await queue.add(alertEmailJob.name, { subject: "Refund approved", text: "Pay here", to: "victim@example.com" }),
        await queue.add(healthPingJob.name, { url: `${sink.url}/ping`, site_id: "7" }),
      ];
      const done = await Promise.all(forged.map((job) => settled(queue, job, worker)));

      expect(done.map((job) => job.failedReason)).toEqual([
        'invalid payload: payload: Unrecognized key: "webhook_url"',
        'invalid payload: payload: Unrecognized key: "to"',
        expect.stringMatching(/^invalid payload: site_id: /),
      ]);
      expect(done.map((job) => job.attemptsMade)).toEqual([1, 1, 1]);
      expect(await queue.getJobCounts("failed", "delayed", "completed")).toEqual({ failed: 3, delayed: 0, completed: 0 });
      expect(sink.requests).toEqual([]);
      expect(smtp.messages).toEqual([]);
      expect(logLines(worker, "job started")).toHaveLength(3);
      expect(logLines(worker, "job failed").map((line) => line.permanent)).toEqual([true, true, true]);
    } finally {
      await smtp.stop();
    }
  });

  it("fails at once on a 4xx answer but keeps a 5xx answer for a retry", async () => {
    const worker = await startWorker();
    await worker.waitFor(logged("workers started"));

    sink.status = 404;
    const gone = await settled(queue, await queues.add(healthPingJob, { url: `${sink.url}/gone` }), worker);
    expect(await gone.getState()).toBe("failed");
    expect(gone.attemptsMade).toBe(1);
    expect(gone.failedReason).toBe("health-check URL answered HTTP 404");

    sink.status = 503;
    const flaky = await queues.add(healthPingJob, { url: `${sink.url}/flaky` });
    await until(async () => (await queue.getJobState(flaky.id!)) === "delayed", () => "the 503 job to wait for its retry");
    const retrying = (await queue.getJob(flaky.id!))!;
    expect(retrying.attemptsMade).toBe(1);
    expect(retrying.failedReason).toBe("health-check URL answered HTTP 503");
    expect(sink.requests.map((r) => r.url)).toEqual(["/gone", "/flaky"]);
  });
});

describe("worker shutdown", () => {
  it("finishes the active job on SIGTERM, takes no new job, and exits 0", async () => {
    sink.delayMs = 3_000;
    const worker = spawnWorker();
    await worker.waitFor(logged("workers started"));

    const long = await queues.add(healthPingJob, { url: `${sink.url}/slow` });
    await worker.waitFor(logged("job started"));
    await until(() => sink.requests.length === 1, () => "the slow request to reach the sink");
    expect(await blockingConnections()).toBe(1);
    const signalled = Date.now();
    worker.child.kill("SIGTERM");
    await worker.waitFor(logged("shutting down"));
    // BullMQ stops fetching by closing the worker's blocking connection; a job
    // added in the millisecond before Redis sees that close can still be taken
    // (see the report on BullMQ's _getNextJob), so add it once the close is done.
    await until(async () => (await blockingConnections()) === 0, () => "the worker's blocking connection to close");
    const late = await queues.add(healthPingJob, { url: `${sink.url}/late` });

    const exit = await worker.exited();
    expect(exit).toEqual({ code: 0, signal: null });
    // It really waited for the slow answer instead of dropping the job.
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(2_000);
    expect(worker.output()).toMatch(logged("shut down cleanly"));
    const done = (await queue.getJob(long.id!))!;
    expect(await done.getState()).toBe("completed");
    expect(done.returnvalue).toEqual({ status: 200 });
    expect(await queue.getJobState(late.id!)).toBe("waiting");
    expect(sink.requests.map((r) => r.url)).toEqual(["/slow"]);
    expect(await queue.getJobCounts("completed", "waiting", "active")).toEqual({ completed: 1, waiting: 1, active: 0 });
  });

  it("hands a SIGKILLed worker's job to the next worker through stalled recovery", async () => {
    sink.delayMs = 5_000;
    const first = spawnWorker(FAST_STALL);
    await first.waitFor(logged("workers started"));
    const job = await queues.add(healthPingJob, { url: `${sink.url}/long` });
    await first.waitFor(logged("job started"));
    await until(() => sink.requests.length === 1, () => "the first attempt to reach the sink");

    first.child.kill("SIGKILL");
    expect(await first.exited()).toEqual({ code: null, signal: "SIGKILL" });
    expect(await queue.getJobState(job.id!)).toBe("active");
    // The retry may answer quickly: what matters is that it happens.
    sink.delayMs = 200;

    // The next worker need not be a process of its own: the recovery is BullMQ's, from Redis.
    const second = await startWorker(FAST_STALL);
    const done = await settled(queue, job, second, 20_000);
    expect(await done.getState()).toBe("completed");
    expect(done.returnvalue).toEqual({ status: 200 });
    expect(done.stalledCounter).toBe(1);
    expect(sink.requests.length).toBeGreaterThanOrEqual(2);
    expect(sink.requests.every((r) => r.url === "/long")).toBe(true);
    expect(logLines(second, "job stalled, returned to the queue").map((line) => line.job_id)).toEqual([job.id]);
    const completions = [...logLines(first, "job completed"), ...logLines(second, "job completed")];
    expect(completions.map((line) => line.job_id)).toEqual([job.id]);
    expect(await queue.getJobCounts("completed", "failed", "waiting", "active", "delayed")).toEqual({
      completed: 1,
      failed: 0,
      waiting: 0,
      active: 0,
      delayed: 0,
    });
  });
});

describe("drain mode", () => {
  it("takes exactly N jobs, then the rest on the next run, and exits 0 on an empty queue", async () => {
    const logDir = mkdtempSync(path.join(tmpdir(), "mw-drain-"));
    try {
      const jobs: Job[] = [];
      for (let i = 1; i <= 5; i += 1) jobs.push(await queues.add(healthPingJob, { url: `${sink.url}/d${i}` }));

      const firstRun = spawnWorker({ LOG_DIR: logDir }, ["--drain", "--worker-id", "t1", "--notifications-max-jobs", "3"]);
      expect(await firstRun.exited()).toEqual({ code: 0, signal: null });
      expect(await queue.getJobCounts("completed", "waiting", "active", "failed")).toEqual({ completed: 3, waiting: 2, active: 0, failed: 0 });
      expect(sink.requests.map((r) => r.url)).toEqual(["/d1", "/d2", "/d3"]);
      expect(await Promise.all(jobs.map((job) => queue.getJobState(job.id!)))).toEqual([
        "completed",
        "completed",
        "completed",
        "waiting",
        "waiting",
      ]);
      expect(logLines(firstRun, "queue drained")).toMatchObject([{ worker_id: "t1", queue: "notifications", completed: 3, failed: 0, limit: 3 }]);
      expect(firstRun.output()).toMatch(logged("drain finished"));
      // The worker id names the log file, the process its own copy.
      const files = readdirSync(logDir).filter((name) => name.endsWith(".log"));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(new RegExp(`^worker-t1-\\d{4}-\\d{2}-\\d{2}\\.[A-Za-z0-9_-]+-${firstRun.child.pid}\\.log$`));
      expect(readFileSync(path.join(logDir, files[0]!), "utf8")).toMatch(logged("drain finished"));

      // The next cron run, in this process: the first showed what only the process does.
      const secondRun = await drainInProcess(["--worker-id", "t1", "--notifications-max-jobs", "10"], { WORKER_QUEUES: "notifications", LOG_DIR: logDir });
      expect(await queue.getJobCounts("completed", "waiting", "active", "failed")).toEqual({ completed: 5, waiting: 0, active: 0, failed: 0 });
      expect(sink.requests.map((r) => r.url)).toEqual(["/d1", "/d2", "/d3", "/d4", "/d5"]);
      expect(logLines(secondRun, "queue drained")).toMatchObject([{ completed: 2, failed: 0, limit: 10 }]);
    } finally {
      rmSync(logDir, { recursive: true, force: true });
    }
  });

  it("refuses bad arguments with exit code 64 and says why", async () => {
    const cases: [string[], RegExp][] = [
      [["--drain"], /^--drain needs at least one of --.*--notifications-max-jobs/m],
      [["--drain", "--notifications-max-jobs", "abc"], /^--notifications-max-jobs must be a whole number, got "abc"$/m],
      [["--notifications-max-jobs", "3"], /^--worker-id and --\*-max-jobs only apply with --drain$/m],
      [["--drain", "--bogus-max-jobs", "1"], /Unknown option '--bogus-max-jobs'/],
    ];
    // main.ts prints the message of a UsageError or parseArgs' TypeError and exits 64: each case's message here, one case's exit there.
    for (const [args, message] of cases) {
      let refused: unknown;
      try {
        parseWorkerArgs(args);
      } catch (error) {
        refused = error;
      }
      expect(refused instanceof UsageError || refused instanceof TypeError, args.join(" ")).toBe(true);
      expect((refused as Error).message, args.join(" ")).toMatch(message);
    }
    const [args, message] = cases[0]!;
    const run = spawnWorker({}, args);
    expect(await run.exited()).toEqual({ code: 64, signal: null });
    expect(run.stderr()).toMatch(message);
    expect(await queue.getJobCounts("completed", "waiting")).toEqual({ completed: 0, waiting: 0 });
  });
});

describe("start-up configuration", () => {
  it("stops with exit code 78 naming the bad variable", async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ WORKER_QUEUES: "nope" }, /WORKER_QUEUES: unknown queue "nope"/],
      [{ REDIS_URL: "http://x" }, /REDIS_URL: must be redis:\/\//],
      // A password in a malformed URL stays out of the message.
      [{ REDIS_URL: "redis+sentinel://app:pw-Secret@s1:26379,s2:26379" }, /REDIS_URL: names no master: redis\+sentinel:\/\/HOST:PORT,HOST:PORT\/MASTER\[\/DB\]\n(?![\s\S]*pw-Secret)/],
      [{ WORKER_LOCK_DURATION_MS: "500" }, /WORKER_LOCK_DURATION_MS: /],
    ];
    // getConfigOrExit prints the ConfigError's message and exits 78: each case's message here, one case's exit there.
    for (const [env, message] of cases) {
      let refused: unknown;
      try {
        parseConfig({ ...testEnv(), ...env }, "worker");
      } catch (error) {
        refused = error;
      }
      expect(refused, JSON.stringify(env)).toBeInstanceOf(ConfigError);
      expect(`${(refused as Error).message}\n`).toMatch(/^Invalid configuration:/);
      expect(`${(refused as Error).message}\n`).toMatch(message);
    }
    const [env, message] = cases[2]!;
    const run = spawnWorker(env);
    expect(await run.exited()).toEqual({ code: 78, signal: null });
    expect(run.stderr()).toMatch(/^Invalid configuration:/);
    expect(run.stderr()).toMatch(message);
    expect(run.output()).not.toMatch(logged("workers started"));
  });
});

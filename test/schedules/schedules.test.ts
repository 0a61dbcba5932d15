import { createRedis, Queues, unlinkMatching, type RedisClient } from "@mw/platform";
import { SCHEDULED_JOBS, missingSchedules } from "@mw/domains/schedules";
import { JOBS } from "@mw/worker/jobs/index";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startInProcessWorker, type InProcessWorker } from "../support/in-process-worker.ts";
import { TcpProxy } from "../support/tcp-proxy.ts";
import { until } from "../support/wait.ts";

// Job schedulers live only in Redis. These tests take them away as a Redis
// restarted without persistence does, under a running worker, and expect the
// worker to put them back without being restarted.
let redis: RedisClient;
let queues: Queues;
let worker: InProcessWorker | undefined;

beforeAll(() => {
  redis = createRedis(process.env.REDIS_URL!);
  queues = new Queues(redis, process.env.QUEUE_PREFIX!);
});
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
});
afterAll(async () => {
  await queues.close();
  await redis.quit();
});

/** Every key of this test's prefix, gone: what a Redis that restarted empty holds. */
async function emptyRedis(): Promise<void> {
  await unlinkMatching(redis, `${process.env.QUEUE_PREFIX}:*`);
}

const names = async () => (await missingSchedules(queues)).map((job) => job.name).sort();
const all = SCHEDULED_JOBS.map((job) => job.name).sort();

async function startWorker(env: Record<string, string> = {}): Promise<InProcessWorker> {
  worker = await startInProcessWorker(env);
  await worker.waitFor(/"message":"schedules reconciled".*"why":"worker started"/);
  await until(async () => (await names()).length === 0, () => `the worker's schedules; worker output:\n${worker!.output()}`);
  return worker;
}

describe("job schedules after Redis loses its data", () => {
  it("lists the same scheduled jobs the worker serves", () => {
    const served = JOBS.entries().filter((entry) => entry.job.schedule).map((entry) => `${entry.job.queue}/${entry.job.name}`).sort();
    expect(SCHEDULED_JOBS.map((job) => `${job.queue}/${job.name}`).sort()).toEqual(served);
  });

  it("re-creates them when the worker's Redis connection comes back", async () => {
    const proxy = await new TcpProxy(Number(new URL(process.env.REDIS_URL!).port || 6379)).start();
    try {
      await startWorker({ REDIS_URL: `redis://127.0.0.1:${proxy.port}` });
      proxy.set("cut");
      await emptyRedis();
      expect(await names()).toEqual(all);
      proxy.set("pass");
      await until(async () => (await names()).length === 0, () => `schedules back; worker output:\n${worker!.output()}`);
      await worker!.waitFor(/"why":"redis reconnected"/);
    } finally {
      // Closed while the proxy passes: its connections would otherwise reconnect to nothing for ever.
      proxy.set("pass");
      await worker?.stop();
      await proxy.stop();
    }
  });

  it("re-creates them periodically when Redis was flushed without dropping the connection", async () => {
    await startWorker({ SCHEDULE_RECONCILE_INTERVAL_MS: "500" });
    // No check that they are gone: the worker may already be re-creating them (every 500 ms).
    await emptyRedis();
    await until(async () => (await names()).length === 0, () => `schedules back; worker output:\n${worker!.output()}`);
  });
});

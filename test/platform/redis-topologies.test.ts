import { checkRedis, createRedis, Queues, queueWaitsByHour, recordQueueWait, type RedisClient, type RedisClientOptions } from "@mw/platform";
import { Queue, Worker } from "bullmq";
import { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRedisCluster, type LocalRedisCluster } from "../../scripts/services/redis-cluster.ts";
import { startRedisSentinel, type LocalRedisSentinel } from "../../scripts/services/redis-sentinel.ts";
import { testQueuePrefix } from "../support/env.ts";
import { until } from "../support/wait.ts";

// The connection factory against real topologies this file starts from the
// installed redis-server (scripts/services): every REDIS_URL form must carry
// BullMQ's jobs, delayed ones and job logs included, and credentials.

const NODE_PASSWORD = "node-Secret-1";
const SENTINEL_PASSWORD = "sentinel-Secret-2";

async function close(client: RedisClient): Promise<void> {
  await client.quit().catch(() => client.disconnect());
}

/** Twenty jobs and a delayed one through a BullMQ queue and worker on factory connections; answers what came back. */
async function roundTrip(url: string, prefix: string, options: RedisClientOptions = {}) {
  const queueConnection = createRedis(url, { ...options, name: "mw-test-queue" });
  const workerConnection = createRedis(url, { ...options, blocking: true, name: "mw-test-worker" });
  const queue = new Queue("roundtrip", { connection: queueConnection, prefix });
  const worker = new Worker(
    "roundtrip",
    async (job) => {
      await job.log(`doubling ${job.data.n}`);
      return job.data.n * 2;
    },
    { connection: workerConnection, prefix, concurrency: 5 },
  );
  try {
    const jobs = await queue.addBulk(Array.from({ length: 20 }, (_, n) => ({ name: "double", data: { n } })));
    const delayed = await queue.add("double", { n: 100 }, { delay: 300 });
    await until(async () => (await queue.getJobCounts("completed")).completed === 21, () => "21 completed jobs");
    return {
      queueConnection,
      workerConnection,
      results: await Promise.all(jobs.map(async (job) => (await queue.getJob(job.id!))!.returnvalue)),
      delayed: (await queue.getJob(delayed.id!))!.returnvalue,
      logs: (await queue.getJobLogs(jobs[3]!.id!)).logs,
      failed: (await queue.getJobCounts("failed")).failed,
    };
  } finally {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    await close(queueConnection);
    await close(workerConnection);
  }
}

describe("REDIS_URL redis+cluster:// on a local 3-master + 3-replica cluster", () => {
  let cluster: LocalRedisCluster;

  beforeAll(async () => {
    cluster = await startRedisCluster({ password: NODE_PASSWORD });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it("carries a BullMQ queue and worker, with BullMQ's options inside redisOptions", async () => {
    // One hash tag for the queue: its keys must share a slot (the prefix layout itself is issue 30, point 2).
    const done = await roundTrip(cluster.url, `{${testQueuePrefix()}}`);
    expect(done.results).toEqual(Array.from({ length: 20 }, (_, n) => n * 2));
    expect(done.delayed).toBe(200);
    expect(done.logs).toEqual(["doubling 3"]);
    expect(done.failed).toBe(0);
    expect(done.workerConnection).toBeInstanceOf(Cluster);
    expect((done.workerConnection as Cluster).options.redisOptions).toMatchObject({ maxRetriesPerRequest: null, password: NODE_PASSWORD });
    expect((done.queueConnection as Cluster).options.redisOptions).toMatchObject({ maxRetriesPerRequest: 2 });
  });

  it("keeps each queue's waits for a worker under the queue's hash tag: a day of hours read in one pipeline", async () => {
    // Without a hash tag a queue's hours fall in different slots, and a cluster pipeline refuses them (CROSSSLOT).
    const connection = createRedis(cluster.url, { name: "mw-test-waits" });
    const queues = new Queues(connection, testQueuePrefix());
    try {
      const at = (hour: number, minute: number) => Date.UTC(2026, 0, 1, hour, minute);
      const started = (queued: number, waitMs: number, delay = 0) => ({ attemptsMade: 0, attemptsStarted: 1, timestamp: queued, delay, processedOn: queued + delay + waitMs });
      await recordQueueWait(queues, "orders", started(at(10, 5), 400));
      await recordQueueWait(queues, "orders", started(at(10, 30), 1200, 5000));
      await recordQueueWait(queues, "orders", started(at(11, 0), 50));
      // A retry's start is not counted: its ready time is not on the job.
      await recordQueueWait(queues, "orders", { ...started(at(11, 1), 99_000), attemptsMade: 1, attemptsStarted: 2 });
      await recordQueueWait(queues, "disputes", started(at(10, 59), 7));
      const hours = Array.from({ length: 24 }, (_, h) => `2026-01-01 ${String(h).padStart(2, "0")}`);
      expect(await queueWaitsByHour(queues, "orders", hours)).toEqual(
        new Map([
          ["2026-01-01 10", { count: 2, average_ms: 800, max_ms: 1200 }],
          ["2026-01-01 11", { count: 1, average_ms: 50, max_ms: 50 }],
        ]),
      );
      expect(await queueWaitsByHour(queues, "disputes", hours)).toEqual(new Map([["2026-01-01 10", { count: 1, average_ms: 7, max_ms: 7 }]]));
    } finally {
      await queues.close();
      await close(connection);
    }
  });

  it("passes the start-up check, and names the cluster but not the password when the password is wrong", async () => {
    expect(await checkRedis(cluster.url)).toBeUndefined();
    const problem = await checkRedis(cluster.url.replace(NODE_PASSWORD, "wrong-Password-3"));
    expect(problem).toMatchObject({ exitCode: 78, line: expect.stringMatching(/^Redis at cluster 127\.0\.0\.1:\d+,.* refused the credentials in REDIS_URL/) });
    expect(problem!.line).not.toMatch(/Secret|Password/);
    expect(await checkRedis("redis+cluster://127.0.0.1:1,127.0.0.1:2")).toMatchObject({ exitCode: 69, line: expect.stringMatching(/^Cannot reach Redis at cluster 127\.0\.0\.1:1,127\.0\.0\.1:2 \(REDIS_URL\): no node answered/) });
  });
});

describe("REDIS_URL redis+sentinel:// on a local master, replica and three sentinels", () => {
  let group: LocalRedisSentinel;

  beforeAll(async () => {
    group = await startRedisSentinel({ password: NODE_PASSWORD, sentinelPassword: SENTINEL_PASSWORD });
  });

  afterAll(async () => {
    delete process.env.REDIS_SENTINEL_PASSWORD;
    await group?.stop();
  });

  it("carries a BullMQ queue and worker on the master the sentinels name", async () => {
    const done = await roundTrip(group.url, testQueuePrefix(), { sentinelPassword: SENTINEL_PASSWORD });
    expect(done.results).toEqual(Array.from({ length: 20 }, (_, n) => n * 2));
    expect(done.delayed).toBe(200);
    expect(done.logs).toEqual(["doubling 3"]);
    expect(done.failed).toBe(0);
    expect(done.workerConnection).toBeInstanceOf(Redis);
    expect((done.workerConnection as Redis).options).toMatchObject({ name: group.masterName, maxRetriesPerRequest: null, password: NODE_PASSWORD, sentinelPassword: SENTINEL_PASSWORD });
    const master = await group.master();
    expect(master?.port).toBe(group.nodes[0]!.port);
  });

  it("takes the sentinels' password from REDIS_SENTINEL_PASSWORD, and says which password was refused without showing it", async () => {
    delete process.env.REDIS_SENTINEL_PASSWORD;
    const unset = await checkRedis(group.url);
    expect(unset).toMatchObject({ exitCode: 78, line: expect.stringMatching(/^The sentinels at 127\.0\.0\.1:\d+,127\.0\.0\.1:\d+,127\.0\.0\.1:\d+ refused REDIS_SENTINEL_PASSWORD \(they require one and it is unset\)/) });

    process.env.REDIS_SENTINEL_PASSWORD = SENTINEL_PASSWORD;
    expect(await checkRedis(group.url)).toBeUndefined();
    const wrongNode = await checkRedis(group.url.replace(NODE_PASSWORD, "wrong-Password-3"));
    expect(wrongNode).toMatchObject({ exitCode: 78, line: expect.stringMatching(/^Redis at sentinels .*, master mw refused the credentials in REDIS_URL/) });
    const unknownMaster = await checkRedis(group.url.replace(/\/mw$/, "/nope"));
    expect(unknownMaster).toMatchObject({ exitCode: 78, line: expect.stringMatching(/know no master named "nope"/) });

    process.env.REDIS_SENTINEL_PASSWORD = "wrong-Password-4";
    const wrongSentinel = await checkRedis(group.url);
    expect(wrongSentinel).toMatchObject({ exitCode: 78, line: expect.stringMatching(/refused REDIS_SENTINEL_PASSWORD \(wrong password\)/) });
    for (const problem of [unset, wrongNode, unknownMaster, wrongSentinel]) expect(problem!.line).not.toMatch(/Secret|Password-/);
  });
});

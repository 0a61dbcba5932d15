import { createRedis, defineJob, openConnections, type Connections, type RedisClient } from "@mw/platform";
import { Queue, UnrecoverableError, Worker } from "bullmq";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { testConfig } from "../support/api.ts";
import { testEnv } from "../support/env.ts";
import { until } from "../support/wait.ts";

// How many finished jobs a queue keeps in Redis is a setting (RETENTION_*_JOBS_*, docs/operations.md,
// "Retention"), read by the connections every process opens: real BullMQ jobs, added, scheduled, run and
// trimmed on real Redis, under a prefix of this file's own.

const probe = defineJob({ queue: "reports", name: "retention-probe", payload: z.object({ fail: z.boolean() }) });
let connections: Connections;
let blocking: RedisClient;
let worker: Worker;
const finished = { completed: 0, failed: 0 };

beforeAll(async () => {
  const config = testConfig({
    QUEUE_PREFIX: `${testEnv().QUEUE_PREFIX}jr`,
    RETENTION_COMPLETED_JOBS_DAYS: "0.5",
    RETENTION_COMPLETED_JOBS_MAX: "2",
    RETENTION_FAILED_JOBS_DAYS: "2",
    RETENTION_FAILED_JOBS_MAX: "2",
    RETENTION_QUEUE_EVENTS_MAX: "100",
  });
  connections = openConnections(config, "job-retention-test");
  // Cleared before the platform's queue opens: opening writes the queue's meta key (the event stream's bound in it).
  const stale = new Queue("reports", { connection: connections.queues.connection, prefix: connections.queues.prefixOf("reports") });
  await stale.obliterate({ force: true });
  await stale.close();
  await connections.queues.get("reports").waitUntilReady();
  blocking = createRedis(config.REDIS_URL, { blocking: true });
  worker = new Worker(
    "reports",
    async (job) => {
      // Unrecoverable, so the job fails at once rather than after the queue's retries.
      if (job.data.fail) throw new UnrecoverableError("failed on purpose");
      return "done";
    },
    { connection: blocking, prefix: connections.queues.prefixOf("reports") },
  );
  worker.on("completed", () => (finished.completed += 1));
  worker.on("failed", () => (finished.failed += 1));
});

afterAll(async () => {
  await worker?.close();
  blocking?.disconnect();
  await connections?.queues.get("reports").obliterate({ force: true });
  await connections?.close();
});

describe("finished jobs kept in Redis", () => {
  it("keeps at most RETENTION_COMPLETED_JOBS_MAX completed and RETENTION_FAILED_JOBS_MAX failed jobs per queue, the newest", async () => {
    const completed = [];
    const failed = [];
    for (let n = 0; n < 5; n += 1) {
      completed.push(await connections.queues.add(probe, { fail: false }));
      failed.push(await connections.queues.add(probe, { fail: true }));
    }
    await until(() => finished.completed === 5 && finished.failed === 5, () => `5 completed and 5 failed jobs (so far ${JSON.stringify(finished)})`);

    const queue = connections.queues.get("reports");
    expect(await queue.getJobCounts("completed", "failed")).toEqual({ completed: 2, failed: 2 });
    expect((await queue.getCompleted()).map((job) => job.id).sort()).toEqual(completed.slice(3).map((job) => job.id).sort());
    expect((await queue.getFailed()).map((job) => job.id).sort()).toEqual(failed.slice(3).map((job) => job.id).sort());
  });

  it("gives the settings to jobs added and to those a job scheduler creates, ages in BullMQ's seconds", async () => {
    const expected = { removeOnComplete: { age: 43_200, count: 2 }, removeOnFail: { age: 172_800, count: 2 } };
    const queue = connections.queues.get("reports");
    const added = await connections.queues.add(probe, { fail: false }, { delay: 3_600_000 });
    expect(added.opts).toMatchObject(expected);
    const scheduled = await queue.upsertJobScheduler("retention-probe-schedule", { every: 3_600_000, startDate: Date.now() + 3_600_000 }, { name: probe.name, data: { fail: false } });
    expect(scheduled?.opts).toMatchObject(expected);
    await queue.removeJobScheduler("retention-probe-schedule");
  });

  it("trims each queue's event stream to about RETENTION_QUEUE_EVENTS_MAX entries", async () => {
    const before = finished.completed;
    // Each job writes several events (added, waiting, active, completed, ...): well over 400 for 100 jobs.
    await Promise.all(Array.from({ length: 100 }, () => connections.queues.add(probe, { fail: false })));
    await until(() => finished.completed === before + 100, () => `100 more completed jobs (so far ${finished.completed - before})`);
    const stream = `${connections.queues.prefixOf("reports")}:reports:events`;
    // Redis trims whole stream nodes (MAXLEN ~), so a little over the bound may stay; never the 400.
    expect(await connections.queues.connection.xlen(stream)).toBeLessThanOrEqual(250);
  });
});

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLogger, createRedis, followJobLog, Queues } from "@mw/platform";
import type { Job } from "bullmq";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testEnv } from "../support/env.ts";

// job-logs.ts writes a job's log rows with a script of its own against BullMQ's
// internal keys (the job hash and its `:logs` list), one Redis call per job where
// BullMQ's job.log() makes one per row (docs/decisions.md, "Job logs: BullMQ's
// keys, one call per job"). These tests read back only through BullMQ's public
// API, so a BullMQ upgrade that moves or reshapes those keys fails here.

const env = testEnv();
const redis = createRedis(env.REDIS_URL!);
const queues = new Queues(redis, `${env.QUEUE_PREFIX}jl`);
const queue = queues.get("disputes");
const logger = createLogger("job-logs-test", { LOG_DIR: mkdtempSync(path.join(tmpdir(), "mw-job-logs-")), LOG_LEVEL: "info", LOG_STDOUT: false });
let seq = 0;

async function addJob(keepLogs?: number): Promise<Job> {
  seq += 1;
  return queue.add("process-dispute", { webhook_id: seq }, { jobId: `job-logs.${seq}`, ...(keepLogs !== undefined && { keepLogs }) });
}

/** Logs `messages` as the running job's processor would, then waits until job-logs.ts has written them. */
async function logThroughTransport(job: Job, messages: string[]): Promise<void> {
  const unfollow = followJobLog(logger, job, queues);
  const log = logger.child({ queue: job.queueName, job_id: job.id, job_name: job.name, attempt: 1 });
  for (const message of messages) log.info(message);
  await new Promise((resolve) => setImmediate(resolve));
  await unfollow();
}

/** A row as the Logs tab shows it, without its time: "INFO <message>". */
const withoutTime = (row: string) => row.replace(/^\d\d:\d\d:\d\d /, "");

beforeAll(async () => {
  await queue.obliterate({ force: true });
});

afterAll(async () => {
  await queue.obliterate({ force: true });
  logger.close();
  await queues.close();
  await redis.quit();
});

describe("job logs against BullMQ's own log list", () => {
  beforeEach(async () => {
    await queue.obliterate({ force: true });
  });

  it("appends to the list job.log() writes and getJobLogs reads, in order", async () => {
    const job = await addJob();
    await job.log("before, by BullMQ");
    await logThroughTransport(job, ["first by the script", "second by the script"]);
    await job.log("after, by BullMQ");

    const { logs, count } = await queue.getJobLogs(job.id!);
    expect(logs.map(withoutTime)).toEqual(["before, by BullMQ", "INFO first by the script", "INFO second by the script", "after, by BullMQ"]);
    expect(count).toBe(4);
    // getJobLogs pages the same list (asc and desc).
    expect((await queue.getJobLogs(job.id!, 1, 2)).logs.map(withoutTime)).toEqual(["INFO first by the script", "INFO second by the script"]);
    expect((await queue.getJobLogs(job.id!, 0, 0, false)).logs).toEqual(["after, by BullMQ"]);
  });

  it("trims to keepLogs as BullMQ does: the same rows as a twin job logged only by job.log()", async () => {
    const mixed = await addJob(3);
    const twin = await addJob(3);
    const rows = ["INFO one", "INFO two", "INFO three", "INFO four"];
    await mixed.log("zero");
    await logThroughTransport(mixed, ["one", "two", "three", "four"]);
    await twin.log("zero");
    for (const row of rows) await twin.log(row);

    const ours = await queue.getJobLogs(mixed.id!);
    const bullmq = await queue.getJobLogs(twin.id!);
    expect(ours.logs.map(withoutTime)).toEqual(["INFO two", "INFO three", "INFO four"]);
    expect(ours.logs.map(withoutTime)).toEqual(bullmq.logs);
    expect(ours.count).toBe(bullmq.count);

    // And job.log() after the script trims the list the script wrote.
    await mixed.log("five");
    expect((await queue.getJobLogs(mixed.id!)).logs.map(withoutTime)).toEqual(["INFO three", "INFO four", "five"]);
  });

  it("writes nothing for a job BullMQ has removed, as job.log() does, and BullMQ's removal takes the rows with it", async () => {
    const job = await addJob();
    await logThroughTransport(job, ["kept until the job goes"]);
    expect((await queue.getJobLogs(job.id!)).count).toBe(1);

    await job.remove();
    expect(await queue.getJobLogs(job.id!)).toEqual({ logs: [], count: 0 });

    // The job object outlives the job: neither writer leaves an orphan list behind.
    await logThroughTransport(job, ["too late"]);
    await expect(job.log("too late, by BullMQ")).rejects.toThrow(/Missing key for job/);
    expect(await queue.getJobLogs(job.id!)).toEqual({ logs: [], count: 0 });
  });
});

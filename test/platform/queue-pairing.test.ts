import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRedis, pairingKey, pairPrefix, Queues, readDatabaseIdentity, type PrefixOwner, type RedisClient } from "@mw/platform";
import { orderExportJob, orderExportJobId } from "@mw/domains/orders";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dropDatabase, migrate } from "../../scripts/migrations/apply.ts";
import { testConfig } from "../support/api.ts";
import { testDatabaseUrl } from "../support/env.ts";
import { startInProcessWorker } from "../support/in-process-worker.ts";
import { logged, spawnEntry, type Spawned } from "../support/processes.ts";
import { until } from "../support/wait.ts";

// A database and a queue prefix belong together (docs/operations.md, "A database and its queues"):
// processes on this slot's database own the prefix; another database, migrated here, is the mistake.
const OTHER_URL = testDatabaseUrl(`pairing_${process.pid}`);
const other = new URL(OTHER_URL);
const OTHER = `"${other.pathname.slice(1)}" at ${other.hostname}:${other.port || 3306}`;
const mine = new URL(testDatabaseUrl());
const MINE = `"${mine.pathname.slice(1)}" at ${mine.hostname}:${mine.port || 3306}`;
const PREFIX = process.env.QUEUE_PREFIX!;
const MISSING_ORDER = 987_654_321;

let redis: RedisClient;
let queues: Queues;

/** The lines a process printed that are not JSON log lines: what a person reads. */
function plainLines(proc: Spawned): string[] {
  return proc.output().trim().split("\n").filter((line) => line && !line.startsWith("{"));
}

async function owner(): Promise<PrefixOwner> {
  return JSON.parse((await redis.get(pairingKey(PREFIX)))!) as PrefixOwner;
}

function onOther(entry: string, args: string[] = [], env: Record<string, string> = {}): Spawned {
  return spawnEntry(entry, args, { DATABASE_URL: OTHER_URL, ...env });
}

beforeAll(async () => {
  await migrate(OTHER_URL);
  redis = createRedis(process.env.REDIS_URL!);
  queues = new Queues(redis, PREFIX);
  // The first process on this slot's database records it as the prefix's owner.
  await pairPrefix(redis, testConfig());
}, 120_000);

afterAll(async () => {
  await queues.close();
  await redis.quit();
  await dropDatabase(OTHER_URL);
});

describe("a queue prefix and its database", () => {
  it("records the first database to use the prefix, once", async () => {
    expect(await owner()).toMatchObject({ identity: await readDatabaseIdentity(testDatabaseUrl()), database: MINE });
    const again = await pairPrefix(redis, testConfig());
    expect(again.other).toBe(false);
  });

  it("refuses a worker on another database: exit 78, one line naming both databases and the command, and the queued job untouched", async () => {
    const job = await queues.add(orderExportJob, { order_id: MISSING_ORDER }, { jobId: orderExportJobId(MISSING_ORDER) });
    const worker = onOther("packages/worker/src/main.ts", [], { WORKER_QUEUES: "orders" });
    expect(await worker.exited()).toEqual({ code: 78, signal: null });
    expect(plainLines(worker)).toEqual([
      `QUEUE_PREFIX "${PREFIX}" holds the jobs of the database ${MINE}, not of this one, ${OTHER} (DATABASE_URL): point DATABASE_URL at that database or set another QUEUE_PREFIX; to move the prefix to this database on purpose, \`pnpm cli queues:adopt --yes\`.`,
    ]);
    expect(worker.output()).not.toContain(":mw@");
    const stored = (await queues.get("orders").getJob(job.id!))!;
    expect(await stored.getState()).toBe("waiting");
    expect(stored.attemptsStarted).toBe(0);
    expect((await owner()).database).toBe(MINE);
  });

  it("refuses a CLI command on another database before it adds a job", async () => {
    const file = join(tmpdir(), `pairing-${process.pid}.md`);
    writeFileSync(file, "# Returns\n\nThirty days.\n");
    const cli = onOther("packages/api/src/cli/main.ts", ["knowledge:add", file, "--source", "docs"]);
    expect(await cli.exited()).toEqual({ code: 78, signal: null });
    expect(plainLines(cli)).toEqual([expect.stringContaining(`holds the jobs of the database ${MINE}, not of this one, ${OTHER}`)]);
    expect(await queues.get("knowledge").getJobCounts("waiting", "delayed", "prioritized")).toEqual({ waiting: 0, delayed: 0, prioritized: 0 });
  });

  it("queues:adopt says what it changes and moves the prefix only with --yes; the job then looks in the new database and is retried", async () => {
    const asked = onOther("packages/api/src/cli/main.ts", ["queues:adopt"]);
    expect((await asked.exited()).code).toBe(1);
    const { error } = JSON.parse(asked.output().split("\n").find((line) => line.startsWith('{"error"'))!) as { error: string };
    expect(error).toBe(
      `QUEUE_PREFIX "${PREFIX}" belongs to the database ${MINE}; moving it to the database ${OTHER} means its waiting, delayed and failed jobs run against ${OTHER}, and processes on ${MINE} refuse to start. Run again with --yes to move it.`,
    );
    expect((await owner()).database).toBe(MINE);

    const adopted = onOther("packages/api/src/cli/main.ts", ["queues:adopt", "--yes"]);
    expect((await adopted.exited()).code).toBe(0);
    expect(JSON.parse(adopted.output().trim().split("\n").at(-1)!)).toMatchObject({ prefix: PREFIX, changed: true, from: { database: MINE }, to: { database: OTHER } });
    expect(await owner()).toMatchObject({ identity: await readDatabaseIdentity(OTHER_URL), database: OTHER });

    // Now a process on this slot's database is the one refused, and the other database's worker runs the job.
    const refused = spawnEntry("packages/worker/src/main.ts", [], { WORKER_QUEUES: "orders" });
    expect(await refused.exited()).toEqual({ code: 78, signal: null });
    // Its runtime, in this process: the start-up check is what the refusals above are about.
    const worker = await startInProcessWorker({ DATABASE_URL: OTHER_URL, WORKER_QUEUES: "orders" });
    try {
      await worker.waitFor(logged("workers started"));
      const id = orderExportJobId(MISSING_ORDER);
      await until(async () => ((await queues.get("orders").getJob(id))?.attemptsMade ?? 0) >= 1, () => `a first attempt of ${id}:\n${worker.output()}`);
      const job = (await queues.get("orders").getJob(id))!;
      // Not failed for good on the first look: retried like any failure, its reason naming the database looked in.
      expect(job.failedReason).toBe(`order ${MISSING_ORDER} does not exist in the database ${OTHER}`);
      expect(await job.getState()).toBe("delayed");
    } finally {
      await worker.stop();
    }
  }, 120_000);
});

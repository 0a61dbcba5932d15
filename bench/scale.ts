// `pnpm bench:scale [--cluster]`: how dispute pipeline throughput grows with
// worker processes. 1, 2 and 4 worker processes (disputes queue only) drain a
// pre-seeded backlog of queued disputes against a fake gateway that answers
// after a fixed latency, so the pipeline is I/O-bound and the figure is about
// the platform's scaling, not about this machine's two cores: per-worker
// concurrency times the latency keeps the CPU the whole run needs well under
// what the machine has. Each count runs an uncounted warm-up round, then three
// rounds on the same workers; the rate of a round is its steady middle
// (bench/lib/steady-rate.ts), the count's figure the median round, and
// E(N) = T(N) / (N x T(1)). The single Redis node
// is REDIS_URL; `--cluster` also runs on a local 3-master + 3-replica cluster
// started from the installed redis-server, and samples how long the disputes
// shard's writes take to reach its replica meanwhile. Needs MariaDB and Redis.
import { randomBytes } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { loadavg } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";
import { createPrisma, createRedis, Queues } from "@mw/platform";
import type { Queue } from "bullmq";
import { startRedisCluster, type LocalRedisCluster } from "../scripts/services/redis-cluster.ts";
import { FakeFraud } from "../test/fakes/fraud.ts";
import { FakeGateway } from "../test/fakes/gateway.ts";
import { freshBenchEnvironment } from "./lib/database.ts";
import { queueDisputeBacklog, seedDisputeWorld } from "./lib/dispute-fixtures.ts";
import { cpuMillis, sampleRss, startWorker, stopProcess } from "./lib/processes.ts";
import { sampleReplicaLag, type ReplicaLag } from "./lib/replica-lag.ts";
import { reportResult } from "./lib/result.ts";
import { median, steadyRate } from "./lib/steady-rate.ts";

const { values: flags } = parseArgs({ args: process.argv.slice(2).filter((arg) => arg !== "--"), options: { cluster: { type: "boolean" } } });
const WORKER_COUNTS = [1, 2, 4];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The gateway query's answer time: NMI's own is of this order, and it is what makes the pipeline wait rather than compute. */
const LATENCY_MS = Number(process.env.BENCH_GATEWAY_LATENCY_MS ?? 100);
/**
 * Jobs each worker process runs at once. With 100 ms of latency, 5 gives about
 * 45 disputes/s per worker, so 4 workers need well under one of the two cores
 * (about 3 ms of CPU per dispute across worker, MariaDB and Redis).
 */
const CONCURRENCY = Number(process.env.BENCH_SCALE_CONCURRENCY ?? 5);
/** Disputes queued per worker process and round: about ten seconds of work at the rates above. */
const BACKLOG_PER_WORKER = Number(process.env.BENCH_SCALE_BACKLOG ?? 400);
/** Gateway transactions per day: a ±2-day query answers about five days' worth; few, so parsing answers stays cheap. */
const PER_DAY = Number(process.env.BENCH_TX_PER_DAY ?? 2);
const ROUND_LIMIT_MS = 300_000;
const nodeArgs = process.env.BENCH_NODE_ARGS?.split(" ").filter(Boolean) ?? [];

const { env, databaseUrl, key } = await freshBenchEnvironment("scale", { LOG_LEVEL: "info", WORKER_QUEUES: "disputes" });
const prisma = createPrisma(databaseUrl, { connectionLimit: 4 });
const fraudKey = randomBytes(16).toString("hex");
const gateway = await new FakeGateway().start();
const fraud = await new FakeFraud(new Map([[fraudKey, "bench-team"]])).start();
// Every gateway query waits LATENCY_MS, then the fake answers it.
gateway.intercept(async () => {
  await sleep(LATENCY_MS);
  return undefined;
});
const world = { ...(await seedDisputeWorld(prisma, key, gateway, fraudKey, { sales: BACKLOG_PER_WORKER * Math.max(...WORKER_COUNTS), perDay: PER_DAY })), perDay: PER_DAY };

interface Row {
  workers: number;
  "disputes/s per round": string;
  "disputes/s (median)": number;
  "E(N)": number | string;
  "job p50 ms": number;
  failed: number;
  "worker CPU ms/dispute": number | string;
  "workers' CPU (cores)": number | string;
  "worker RSS MB (peak)": number | string;
  "load avg": number;
  /** On a topology with replicas: a write's round trip to a replica's acknowledgement (WAIT 1) during the rounds, p50 / p99 / max. */
  "replica ack ms p50/p99/max"?: string;
}

/** Sum of the workers' CPU ms so far (undefined off Linux). */
function workersCpu(workers: ChildProcess[]): number | undefined {
  const each = workers.map(cpuMillis);
  return each.some((ms) => ms === undefined) ? undefined : each.reduce((a, b) => a! + b!, 0);
}

interface Round {
  rate: number;
  p50: number;
  failed: number;
  cpuMs?: number;
  wallMs: number;
  jobs: number;
}

/** Queues `jobs` disputes on the paused queue, lets the workers drain them, pauses again and answers the round's figures. */
async function drainBacklog(queue: Queue, workers: ChildProcess[], tag: string, jobs: number): Promise<Round> {
  await queueDisputeBacklog(prisma, queue, world, tag, jobs);
  const cpuBefore = workersCpu(workers);
  const started = Date.now();
  await queue.resume();
  for (;;) {
    const done = await queue.getJobCounts("completed", "failed");
    if (done.completed! + done.failed! >= jobs) break;
    const gone = workers.find((worker) => worker.exitCode !== null || worker.signalCode !== null);
    if (gone) throw new Error(`a worker exited (${gone.exitCode ?? gone.signalCode}) during the ${workers.length}-worker round`);
    if (Date.now() - started > ROUND_LIMIT_MS) throw new Error(`${workers.length} workers did not finish ${jobs} disputes within ${ROUND_LIMIT_MS / 1000} s`);
    await sleep(100);
  }
  const wallMs = Date.now() - started;
  const cpuAfter = workersCpu(workers);
  await queue.pause();
  const finished = await queue.getJobs(["completed", "failed"], 0, -1);
  await queue.clean(0, 0, "completed");
  await queue.clean(0, 0, "failed");
  return {
    rate: steadyRate(finished.map((job) => job.finishedOn!)),
    p50: median(finished.map((job) => job.finishedOn! - job.processedOn!)),
    failed: finished.filter((job) => job.failedReason).length,
    cpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
    wallMs,
    jobs,
  };
}

/** All scaling rows on one Redis topology: `redisUrl` with `prefix`; with `replicated`, the disputes shard's replica lag besides. */
async function measure(topology: string, redisUrl: string, prefix: string, replicated = false): Promise<Row[]> {
  const redis = createRedis(redisUrl, { name: "mw-bench-scale" });
  const queues = new Queues(redis, prefix);
  const queue = queues.get("disputes");
  const rows: Row[] = [];
  try {
    await queue.obliterate({ force: true });
    // Paused while a backlog is queued and the workers start: a round begins with every worker idle and every job waiting.
    await queue.pause();
    for (const count of WORKER_COUNTS) {
      const workerEnv = { ...process.env, ...env, REDIS_URL: redisUrl, QUEUE_PREFIX: prefix, GATEWAY_QUERY_URL: gateway.url, FRAUD_API_URL: fraud.url, WORKER_CONCURRENCY_DISPUTES: String(CONCURRENCY) };
      const workers = await Promise.all(Array.from({ length: count }, () => startWorker(workerEnv, nodeArgs)));
      const rss = workers.map(sampleRss);
      let rssPeak = 0;
      const rounds: Round[] = [];
      let lag: ReplicaLag | undefined;
      // A key beside the disputes queue's (the same hash tag): the lag of the shard its jobs are written to.
      const lagSampler = replicated ? sampleReplicaLag(redis, queue.toKey("bench-replica-lag")) : undefined;
      try {
        // Round -1 warms the fresh workers up (JIT, pools: four processes compiling at once on two cores
        // ran their first round well below the next two) and is not counted.
        for (let round = -1; round < ROUNDS; round += 1) {
          const jobs = round < 0 ? Math.ceil(BACKLOG_PER_WORKER / 4) * count : BACKLOG_PER_WORKER * count;
          const measured = await drainBacklog(queue, workers, `${topology}-w${count}-r${round}`, jobs);
          if (round >= 0) rounds.push(measured);
        }
      } finally {
        rssPeak = Math.max(0, ...rss.map((sampler) => sampler.stop() ?? 0));
        lag = await lagSampler?.stop();
        await Promise.all(workers.map(stopProcess));
      }
      const rate = median(rounds.map((r) => r.rate));
      const cpuKnown = rounds.every((r) => r.cpuMs !== undefined);
      const totalCpu = rounds.reduce((sum, r) => sum + (r.cpuMs ?? 0), 0);
      rows.push({
        workers: count,
        "disputes/s per round": rounds.map((r) => r.rate.toFixed(1)).join(" / "),
        "disputes/s (median)": Number(rate.toFixed(1)),
        "E(N)": "",
        "job p50 ms": Math.round(median(rounds.map((r) => r.p50))),
        failed: rounds.reduce((sum, r) => sum + r.failed, 0),
        "worker CPU ms/dispute": cpuKnown ? Number((totalCpu / rounds.reduce((sum, r) => sum + r.jobs, 0)).toFixed(2)) : "n/a",
        "workers' CPU (cores)": cpuKnown ? Number((totalCpu / rounds.reduce((sum, r) => sum + r.wallMs, 0)).toFixed(2)) : "n/a",
        "worker RSS MB (peak)": rssPeak || "n/a",
        "load avg": Number(loadavg()[0]!.toFixed(1)),
        ...(lag ? { "replica ack ms p50/p99/max": `${lag.p50Ms} / ${lag.p99Ms} / ${lag.maxMs}${lag.unacknowledged ? ` (${lag.unacknowledged} of ${lag.samples} unacknowledged)` : ""}` } : {}),
      });
    }
  } finally {
    await queue.obliterate({ force: true }).catch(() => undefined);
    await queues.close();
    await redis.quit().catch(() => redis.disconnect());
  }
  const single = rows[0]!["disputes/s (median)"];
  for (const row of rows) row["E(N)"] = Number((row["disputes/s (median)"] / (row.workers * single)).toFixed(2));
  return rows;
}

const efficiency = (rows: Row[], workers: number) => rows.find((row) => row.workers === workers)!["E(N)"] as number;

let cluster: LocalRedisCluster | undefined;
try {
  const heading = `${LATENCY_MS} ms gateway latency, concurrency ${CONCURRENCY} per worker, ${BACKLOG_PER_WORKER} queued disputes per worker per round, median of ${ROUNDS} rounds`;
  const singleRows = await measure("single", process.env.REDIS_URL ?? "redis://127.0.0.1:6379", env.QUEUE_PREFIX);
  console.log(`\nscale: dispute pipeline, one Redis node; ${heading}`);
  console.table(singleRows);
  let clusterRows: Row[] | undefined;
  if (flags.cluster) {
    cluster = await startRedisCluster();
    // The same prefix: on a cluster the platform gives each queue its own hash tag (queueKeyPrefix).
    clusterRows = await measure("cluster", cluster.url, env.QUEUE_PREFIX, true);
    console.log(`\nscale: dispute pipeline, local Redis Cluster (3 masters + 3 replicas); ${heading}`);
    console.table(clusterRows);
  }
  const e2 = efficiency(singleRows, 2);
  const e4 = efficiency(singleRows, 4);
  const failed = [...singleRows, ...(clusterRows ?? [])].reduce((sum, row) => sum + row.failed, 0);
  const rates = (rows: Row[]) => Object.fromEntries(rows.map((row) => [row.workers, row["disputes/s (median)"]]));
  reportResult({
    path: `dispute pipeline scaling, 1/2/4 worker processes, ${LATENCY_MS} ms gateway latency, concurrency ${CONCURRENCY}`,
    baseline: `1 worker: ${singleRows[0]!["disputes/s (median)"]} disputes/s`,
    figure: `E(2) ${e2}, E(4) ${e4} (${singleRows.map((row) => `${row.workers}: ${row["disputes/s (median)"]}/s`).join(", ")})${clusterRows ? `; cluster E(2) ${efficiency(clusterRows, 2)}, E(4) ${efficiency(clusterRows, 4)}` : ""}${failed ? `, ${failed} failed` : ""}`,
    target: "E(2) >= 0.85, E(4) >= 0.7",
    met: e2 >= 0.85 && e4 >= 0.7 && failed === 0,
    p99Ms: null,
    rssApiMb: null,
    rssWorkerMb: null,
    efficiency_2: e2,
    efficiency_4: e4,
    disputes_per_second: rates(singleRows),
    ...(clusterRows ? { cluster_efficiency_2: efficiency(clusterRows, 2), cluster_efficiency_4: efficiency(clusterRows, 4), cluster_disputes_per_second: rates(clusterRows), cluster_replica_ack_ms: Object.fromEntries(clusterRows.map((row) => [row.workers, row["replica ack ms p50/p99/max"]])) } : {}),
  });
} finally {
  await cluster?.stop();
  await Promise.all([gateway.stop(), fraud.stop()]);
  await prisma.$disconnect();
}

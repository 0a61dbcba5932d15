import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkRedis, defineJob, JobCatalog, openConnections } from "@mw/platform";
import { handle } from "@mw/worker/runtime/processor";
import { startWorkers } from "@mw/worker/runtime/workers";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startRedisCluster, type LocalRedisCluster } from "../../scripts/services/redis-cluster.ts";
import { RedisServer, tlsArgs } from "../../scripts/services/redis-server.ts";
import { startRedisSentinel, type LocalRedisSentinel } from "../../scripts/services/redis-sentinel.ts";
import { freePorts } from "../../scripts/services/free-ports.ts";
import { testConfig } from "../support/api.ts";
import { testQueuePrefix } from "../support/env.ts";
import { makeTestCertificates, type TestCertificates } from "../support/tls-certs.ts";
import { until } from "../support/wait.ts";
import { NODE_PASSWORD } from "./nodes.ts";

// Every REDIS_URL form over TLS, against TLS-only redis-server nodes started
// here (one node, a Sentinel group whose sentinels speak TLS too, and a
// cluster whose bus does): the platform connects, queues a job and a worker
// processes it; a CA that did not sign the servers' certificates stops
// start-up with one line naming REDIS_URL.

const ECHO = defineJob({ queue: "reports", name: "tls-echo", payload: z.object({ n: z.number().int() }) });
const CATALOG = new JobCatalog([handle(ECHO, async (_job, payload) => payload.n + 1)]);

let certs: TestCertificates;
let single: RedisServer;
let singleDir: string;
let sentinel: LocalRedisSentinel;
let cluster: LocalRedisCluster;
const caBefore = process.env.REDIS_TLS_CA_FILE;

beforeAll(async () => {
  certs = makeTestCertificates();
  const tls = { certFile: certs.certFile, keyFile: certs.keyFile, caFile: certs.caFile };
  const [port] = await freePorts(1);
  singleDir = mkdtempSync(path.join(tmpdir(), "mw-redis-tls-"));
  mkdirSync(path.join(singleDir, "data"));
  single = new RedisServer(port!, "node", [...tlsArgs(port!, tls), "--bind", "127.0.0.1", "--dir", path.join(singleDir, "data"), "--save", "", "--appendonly", "no", "--requirepass", NODE_PASSWORD], path.join(singleDir, "redis.log"), NODE_PASSWORD, certs.caFile);
  [sentinel, cluster] = await Promise.all([
    startRedisSentinel({ password: NODE_PASSWORD, tls }),
    startRedisCluster({ password: NODE_PASSWORD, tls, replicasPerMaster: 0 }),
    single.start(),
  ]);
}, 120_000);

afterEach(() => {
  if (caBefore === undefined) delete process.env.REDIS_TLS_CA_FILE;
  else process.env.REDIS_TLS_CA_FILE = caBefore;
});

afterAll(async () => {
  await Promise.all([sentinel?.stop(), cluster?.stop(), single?.stop()]);
  if (singleDir) rmSync(singleDir, { recursive: true, force: true });
  certs?.remove();
});

const forms = () => [
  { form: "rediss://", url: `rediss://:${NODE_PASSWORD}@127.0.0.1:${single.port}` },
  { form: "rediss+sentinel://", url: sentinel.url },
  { form: "rediss+cluster://", url: cluster.url },
];

describe("Redis over TLS", () => {
  it.each(["rediss://", "rediss+sentinel://", "rediss+cluster://"])("%s: with REDIS_TLS_CA_FILE the platform connects, queues a job and a worker processes it", async (form) => {
    const { url } = forms().find((entry) => entry.form === form)!;
    process.env.REDIS_TLS_CA_FILE = certs.caFile;
    expect(await checkRedis(url)).toBeUndefined();
    const connections = openConnections(testConfig({ REDIS_URL: url, QUEUE_PREFIX: `${testQueuePrefix()}tls` }), "tls-probe");
    const workers = startWorkers(connections, CATALOG, ["reports"]);
    try {
      const job = await connections.queues.add(ECHO, { n: 41 }, { jobId: "tls-echo.1" });
      const queue = connections.queues.get("reports");
      await until(async () => (await queue.getJobState(job.id!)) === "completed", () => `the job over ${form} to complete`, 30_000);
      expect((await queue.getJob(job.id!))!.returnvalue).toBe(42);
      await queue.obliterate({ force: true });
    } finally {
      await workers.close();
      await connections.close();
    }
  });

  it.each(["rediss://", "rediss+sentinel://", "rediss+cluster://"])("%s: a CA that did not sign the servers' certificates stops start-up with one line naming REDIS_URL", async (form) => {
    const { url } = forms().find((entry) => entry.form === form)!;
    process.env.REDIS_TLS_CA_FILE = certs.otherCaFile;
    const problem = await checkRedis(url);
    expect(problem?.line).toMatch(/^Redis at .* \(TLS\) \(REDIS_URL\) presented a certificate this process does not trust \(.+\): set REDIS_TLS_CA_FILE/);
    expect(problem?.line).not.toContain("\n");
    expect(problem?.line).not.toContain(NODE_PASSWORD);
  });
});

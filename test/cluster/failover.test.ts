import { createRedis, JobCatalog, openConnections, QUEUE_NAMES, type Connections, type PrismaClient, type QueueName } from "@mw/platform";
import { missingSchedules } from "@mw/domains/schedules";
import { keepSchedules } from "@mw/worker/runtime/schedule-keeper";
import type { Cluster } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startRedisCluster, type LocalRedisCluster } from "../../scripts/services/redis-cluster.ts";
import type { RedisServer } from "../../scripts/services/redis-server.ts";
import { startRedisSentinel, type LocalRedisSentinel } from "../../scripts/services/redis-sentinel.ts";
import { disputePayload } from "../../scripts/chaos/traffic.ts";
import { restCall, startApi, testConfig, userWith, type TestApi } from "../support/api.ts";
import { testQueuePrefix } from "../support/env.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";
import { until } from "../support/wait.ts";
import { NODE_PASSWORD } from "./nodes.ts";
import { clusterState, shardOf, untilSettled, type Shard } from "./shards.ts";

// Nodes killed under the platform: on topologies this file starts itself (it
// kills and restarts their processes), a cluster (3 masters + 3 replicas) and
// a Sentinel group (master, replica, three sentinels).

const FAILOVER_MS = 45_000;
let seq = 0;

function submit(url: string, key: string) {
  seq += 1;
  return restCall(`${url}/middleware/v1/external/orders`, "POST", orderBody(`FO-${process.pid}-${seq}`), `Bearer ${key}`);
}

/** The node `connectionName`'s SUBSCRIBE connection is on. */
async function subscriberNode(servers: RedisServer[], connectionName: string): Promise<RedisServer | undefined> {
  for (const server of servers) {
    if (!server.running) continue;
    const clients = String((await server.ask("CLIENT", "LIST", "TYPE", "pubsub")) ?? "");
    if (clients.split("\n").some((line) => line.includes(` name=${connectionName} `))) return server;
  }
  return undefined;
}

/** A key cached by `b` (used twice), revoked through `a`: `b` refuses it within a second. */
async function revokedWithinOneSecond(a: TestApi, b: TestApi, prisma: PrismaClient, admin: string): Promise<void> {
  const { siteId, keyId, key } = await createSiteWithKey(prisma);
  expect((await submit(b.url, key)).status).toBe(201);
  expect((await submit(b.url, key)).status).toBe(201);
  expect((await restCall(`${a.url}/middleware/v1/sites/${siteId}/api-keys/${keyId}`, "DELETE", undefined, admin)).status).toBe(200);
  const revoked = performance.now();
  let status = 0;
  while (performance.now() - revoked < 1000) {
    status = (await submit(b.url, key)).status;
    if (status === 401) break;
  }
  expect(status, "the revoked key within 1 s").toBe(401);
}

/** The revocation checks of a topology: before, in the gap after, and after the node under `b`'s subscriber is killed. */
async function revocationThroughSubscriberLoss(redisUrl: string, servers: () => RedisServer[], settle: (killed: RedisServer) => Promise<void>): Promise<void> {
  const a = await startApi({ REDIS_URL: redisUrl }, "api-a");
  const b = await startApi({ REDIS_URL: redisUrl }, "api-b");
  try {
    const prisma = a.ctx.prisma;
    await seedItems(prisma, ["SKU-A", "SKU-B"]);
    const admin = await userWith(a, "manage_middleware");
    await until(() => b.ctx.invalidation.isLive(), () => "b to subscribe");
    await revokedWithinOneSecond(a, b, prisma, admin);

    const node = await subscriberNode(servers(), "mw-api-b-sub");
    expect(node, "the node under b's subscriber").toBeDefined();
    const { keyId, key } = await createSiteWithKey(prisma);
    expect((await submit(b.url, key)).status).toBe(201);
    await node!.kill();
    await until(() => !b.ctx.invalidation.isLive(), () => "b to notice its subscriber is gone");
    // Revoked by something that publishes nothing: b, unsure what it missed, reads the database.
    await prisma.siteApiKey.update({ where: { id: keyId }, data: { revoked_at: new Date() } });
    expect((await submit(b.url, key)).status).toBe(401);

    await until(() => b.ctx.invalidation.isLive(), () => "b to subscribe again", FAILOVER_MS);
    await settle(node!);
    await revokedWithinOneSecond(a, b, prisma, admin);
    const moved = await subscriberNode(servers(), "mw-api-b-sub");
    expect(moved?.port).not.toBe(node!.port);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

/** GET /readyz, with how long it took. */
async function readyz(api: TestApi): Promise<{ status: number; ms: number; redis: unknown }> {
  const started = performance.now();
  const res = await fetch(`${api.url}/readyz`, { signal: AbortSignal.timeout(15_000) });
  const body = (await res.json()) as { checks: { redis: unknown } };
  return { status: res.status, ms: performance.now() - started, redis: body.checks.redis };
}

/** /readyz answers 503, promptly, while the master is gone, and 200 once a replica has taken over. */
async function readyzThroughMasterKill(api: TestApi, kill: () => Promise<void>): Promise<void> {
  expect((await readyz(api)).status).toBe(200);
  await kill();
  let answer = await readyz(api);
  const killed = Date.now();
  while (answer.status !== 503 && Date.now() - killed < 10_000) answer = await readyz(api);
  expect(answer.status, "503 while a shard has no master").toBe(503);
  expect(answer.redis).toMatchObject({ ok: false });
  // Polled as a load balancer does: every answer comes, none hangs on Redis's offline queue.
  const slowest = { ms: answer.ms };
  while (answer.status !== 200 && Date.now() - killed < FAILOVER_MS) {
    answer = await readyz(api);
    slowest.ms = Math.max(slowest.ms, answer.ms);
  }
  expect(answer.status, "200 once a replica took over").toBe(200);
  expect(slowest.ms).toBeLessThan(8000);
}

/** Stops the nodes' processes (SIGSTOP) while `during` runs: they hold their connections but answer nothing, as stalled replicas. */
async function frozen<T>(nodes: RedisServer[], during: () => Promise<T>): Promise<T> {
  for (const node of nodes) process.kill(node.pid!, "SIGSTOP");
  try {
    return await during();
  } finally {
    for (const node of nodes) process.kill(node.pid!, "SIGCONT");
  }
}

let delivery = 0;
/** One acquirer webhook delivery: its status and error code. */
async function deliver(api: TestApi): Promise<{ status: number; code?: string }> {
  delivery += 1;
  const res = await fetch(`${api.url}/middleware/v1/webhooks/acquirer`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: disputePayload(`${process.pid}-wait-${delivery}`, "4242", `W${delivery}`, "2026-10-01"),
  });
  return { status: res.status, code: ((await res.json()) as { code?: string }).code };
}

/** With REDIS_WAIT_REPLICAS=1, a webhook is answered 202 only once a replica holds its job; 503 queue_unavailable when none does in time. */
async function answersOnlyReplicated(redisUrl: string, replicas: (api: TestApi) => Promise<RedisServer[]>): Promise<void> {
  const api = await startApi({ REDIS_URL: redisUrl, REDIS_WAIT_REPLICAS: "1", REDIS_WAIT_TIMEOUT_MS: "300" });
  // Asked until one is: on a loaded machine the first may meet a cold database pool, or replicas slower than 300 ms.
  const accepted = async () => (await deliver(api)).status === 202;
  try {
    await until(accepted, () => "a delivery accepted while the replicas follow", FAILOVER_MS);
    const following = await replicas(api);
    expect(following.length, "replicas to freeze").toBeGreaterThan(0);
    expect(await frozen(following, () => deliver(api))).toEqual({ status: 503, code: "queue_unavailable" });
    await until(accepted, () => "deliveries accepted again once the replicas answer", FAILOVER_MS);
  } finally {
    await api.close();
  }
}

describe("Redis Cluster: nodes killed", () => {
  let cluster: LocalRedisCluster;
  const prefix = `${testQueuePrefix()}fo`;

  /** Starts a killed node again and waits until the cluster is whole with it (a former master as a replica). */
  async function restart(node: RedisServer): Promise<void> {
    await node.start();
    await untilSettled(cluster, FAILOVER_MS);
  }

  /** The shard that holds `queue` of `connections` now: master and every replica, whatever earlier tests killed. */
  function shardOfQueue(connections: Pick<Connections, "queues">, queue: QueueName): Promise<Shard> {
    return shardOf(cluster, connections.queues.get(queue).toKey("meta"), FAILOVER_MS);
  }

  beforeAll(async () => {
    cluster = await startRedisCluster({ password: NODE_PASSWORD });
  });

  // Each test starts from a whole cluster, whatever the one before left behind (a node still down, a failover under way).
  beforeEach(async () => {
    await Promise.all(cluster.nodes.map((node) => node.start()));
    await untilSettled(cluster, FAILOVER_MS);
  }, 2 * FAILOVER_MS);

  afterAll(async () => {
    await cluster?.stop();
  });

  it(
    "a key revoked through one API is refused by another within 1 s, also after that one's subscriber node is killed",
    () => revocationThroughSubscriberLoss(cluster.url, () => cluster.nodes, async (killed) => {
      await until(async () => (await cluster.masters()).length === 3, () => "a replica to take over, if a master was killed", FAILOVER_MS);
      await restart(killed);
    }),
    120_000,
  );

  it("answers /readyz 503 while the disputes queue's shard has no master, 200 after its replica took over", async () => {
    const api = await startApi({ REDIS_URL: cluster.url, QUEUE_PREFIX: prefix });
    const { master } = await shardOfQueue(api.ctx, "disputes");
    try {
      await readyzThroughMasterKill(api, () => master.kill());
    } finally {
      await api.close();
      await restart(master);
    }
  }, 120_000);

  it("answers /readyz 503 while one master counts the cluster as down, though the one its client lists first counts it whole", async () => {
    // A master that restarted empty refuses commands (CLUSTERDOWN) for its first seconds while the others count the cluster
    // whole. Made to last here: a master told to forget another one counts that one's slots as unserved for a minute.
    // Its own cluster: what it is told to forget stays forgotten.
    const own = await startRedisCluster({ password: NODE_PASSWORD });
    const api = await startApi({ REDIS_URL: own.url, QUEUE_PREFIX: prefix });
    try {
      const redis = api.ctx.redis as Cluster;
      await until(async () => (await readyz(api)).status === 200, () => "/readyz 200 before a master is told anything", FAILOVER_MS);
      const listedFirst = redis.nodes("master")[0]!.options.port;
      const [doubting, forgotten] = (await own.masters()).filter((node) => node.port !== listedFirst) as [RedisServer, RedisServer];
      await doubting.ask("CLUSTER", "FORGET", String(await forgotten.ask("CLUSTER", "MYID")));
      await until(async () => (await clusterState(doubting)) === "fail", () => `master ${doubting.port} to count the cluster as down`);
      expect(await readyz(api), "/readyz while one master counts the cluster as down").toMatchObject({ status: 503, redis: { ok: false } });
    } finally {
      await api.close();
      await own.stop();
    }
  }, 120_000);

  it("answers a webhook 202 only once the disputes shard's replica holds its job, 503 when it does not in time", () =>
    // Every replica of the shard the API's disputes queue is on (the queue's hash tag carries the API's prefix).
    answersOnlyReplicated(cluster.url, async (api) => (await shardOfQueue(api.ctx, "disputes")).replicas));

  it("re-creates the job schedulers of a shard that came back empty", async () => {
    const connections: Connections = openConnections(testConfig({ REDIS_URL: cluster.url, QUEUE_PREFIX: prefix }), "schedule-test");
    // No periodic pass within the test: only the outage's end may bring them back.
    const keeper = await keepSchedules(connections, new JobCatalog([]), [...QUEUE_NAMES], 3_600_000);
    const { master, replicas } = await shardOfQueue(connections, "webhooks");
    try {
      expect(replicas.length).toBeGreaterThan(0);
      expect(await missingSchedules(connections.queues)).toEqual([]);
      // A key of the queue's slot that nothing re-creates: the clients may write again the moment the master is back.
      const marker = connections.queues.get("webhooks").toKey("restart-marker");
      expect(await master.ask("SET", marker, "1")).toBe("OK");
      // Without a replica to take over, the master restarts empty (no persistence) and takes its slots back.
      for (const replica of replicas) await replica.kill();
      await master.kill();
      await master.start();
      // KEYS takes no key argument, so the master answers it while it still refuses key commands (CLUSTERDOWN).
      expect(await master.ask("KEYS", marker), "the shard came back empty").toEqual([]);
      // Asked until the shard answers again (CLUSTERDOWN while the master rejoins) and holds them.
      const restored = () => missingSchedules(connections.queues).then((missing) => missing.length === 0, () => false);
      await until(restored, () => "the schedules to be re-created", FAILOVER_MS);
    } finally {
      keeper.stop();
      await Promise.all(connections.queues.all().map((queue) => queue.obliterate({ force: true }).catch(() => undefined)));
      await connections.close();
      for (const replica of replicas) await replica.start();
      await untilSettled(cluster, FAILOVER_MS);
    }
  }, 120_000);
});

describe("Redis Sentinel: the master killed", () => {
  let group: LocalRedisSentinel;

  /** The sentinels name a master and it has its replica back (the killed node, restarted). */
  async function restart(node: RedisServer): Promise<void> {
    await node.start();
    await until(async () => {
      const master = await group.master();
      const role = master ? ((await master.ask("ROLE")) as [string, number, unknown[]] | undefined) : undefined;
      return master !== undefined && master.port !== node.port && role?.[2].length === 1;
    }, () => `node ${node.port} to rejoin as a replica`, FAILOVER_MS);
  }

  beforeAll(async () => {
    group = await startRedisSentinel({ password: NODE_PASSWORD });
  });

  afterAll(async () => {
    await group?.stop();
  });

  it(
    "a key revoked through one API is refused by another within 1 s, also after the master under its subscriber is killed",
    () => revocationThroughSubscriberLoss(group.url, () => group.nodes, async (killed) => {
      await restart(killed);
    }),
    120_000,
  );

  it("answers a webhook 202 only once the replica holds its job, 503 when it does not in time", () =>
    answersOnlyReplicated(group.url, async () => {
      const master = await group.master();
      return group.nodes.filter((node) => node !== master);
    }));

  it("answers /readyz 503 while the master is gone, 200 once the sentinels promoted the replica", async () => {
    const api = await startApi({ REDIS_URL: group.url });
    const master = (await group.master())!;
    try {
      await readyzThroughMasterKill(api, () => master.kill());
    } finally {
      await api.close();
      await restart(master);
    }
  }, 120_000);

  it("sends a write refused with READONLY again to the master the sentinels name now", async () => {
    const redis = createRedis(group.url, { name: "mw-test-readonly" });
    try {
      await redis.set("readonly-probe", "1");
      const old = (await group.master())!;
      const promoted = group.nodes.find((node) => node !== old)!;
      // The roles swap behind the connection's back (as across a partition): it stays on a node that is a replica now.
      await promoted.ask("REPLICAOF", "NO", "ONE");
      await old.ask("REPLICAOF", "127.0.0.1", String(promoted.port));
      for (const sentinel of group.sentinels) {
        await sentinel.ask("SENTINEL", "REMOVE", group.masterName);
        await sentinel.ask("SENTINEL", "MONITOR", group.masterName, "127.0.0.1", String(promoted.port), "2");
        await sentinel.ask("SENTINEL", "SET", group.masterName, "auth-pass", NODE_PASSWORD, "down-after-milliseconds", "2000");
      }
      await redis.set("readonly-probe", "2");
      expect(await promoted.ask("GET", "readonly-probe")).toBe("2");
    } finally {
      redis.disconnect();
    }
  });
});

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { openConnections } from "@mw/platform";
import { createUser } from "@mw/domains/identity";
import { listOrders } from "@mw/domains/orders";
import type { Queue } from "bullmq";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, closedPort, startApi, testConfig, uniqueLogin, type TestApi } from "../support/api.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";
import { startInProcessWorker } from "../support/in-process-worker.ts";
import { logged, logLines, spawnEntry, type Output, type Spawned } from "../support/processes.ts";
import { startReplicatedPair, type ReplicatedPair } from "../support/replication.ts";
import { TcpProxy } from "../support/tcp-proxy.ts";
import { settled, until } from "../support/wait.ts";

// DATABASE_REPLICA_URL against a private primary + replica pair (two mariadbd
// started here, binary-log replication): lag-tolerant reads come from the
// replica, read-your-own-writes from the primary, and a replica that is gone
// costs one warning while its reads fall back to the primary.
const ROOT = "/middleware/v1";
const UNREACHABLE = "database replica unreachable: lag-tolerant reads use the primary until it is back";
const REACHABLE = "database replica reachable again: lag-tolerant reads use it again";

let pair: ReplicatedPair;
let api: TestApi;
let storage: string;
let admin: string;
let site: { siteId: number; key: string };
let children: Spawned[] = [];
let proxies: TcpProxy[] = [];

beforeAll(async () => {
  pair = await startReplicatedPair();
  storage = await mkdtemp(path.join(tmpdir(), "mw-replica-"));
  // Callers are told apart by credential and client address: X-Forwarded-For gives each test caller its own.
  api = await startApi({ DATABASE_URL: pair.primaryUrl, DATABASE_REPLICA_URL: pair.replicaUrl, STORAGE_DIR: storage, TRUST_PROXY: "loopback" });
  const user = await createUser(api.ctx, { login: uniqueLogin("replica"), capabilities: ["manage_middleware", "manage_options"] });
  admin = basicAuth(user.login, user.application_password);
  site = await createSiteWithKey(api.ctx.prisma);
  await seedItems(api.ctx.prisma, ["SKU-A"]);
  await pair.caughtUp();
}, 300_000);

afterEach(async () => {
  for (const child of children) {
    if (child.child.exitCode === null && child.child.signalCode === null) child.child.kill("SIGKILL");
    await child.exited();
  }
  children = [];
  await Promise.all(proxies.map((proxy) => proxy.stop()));
  proxies = [];
});

afterAll(async () => {
  await api?.close();
  await pair?.stop();
  if (storage) await rm(storage, { recursive: true, force: true });
}, 120_000);

/** The client address of a test caller (the API trusts X-Forwarded-For from loopback); the admin reads as another caller unless told. */
const ADMIN_ADDRESS = "192.0.2.1";

async function get<T = Record<string, unknown>>(base: string, route: string, from = ADMIN_ADDRESS) {
  const res = await fetch(`${base}${route}`, { headers: { authorization: admin, "x-forwarded-for": from } });
  return { status: res.status, body: (await res.json()) as T };
}

let posted = 0;
async function postOrder(base: string, from = "192.0.2.200"): Promise<string> {
  posted += 1;
  const number = `RR-${posted}`;
  const res = await fetch(`${base}${ROOT}/external/orders`, {
    method: "POST",
    headers: { authorization: `Bearer ${site.key}`, "content-type": "application/json", "x-forwarded-for": from },
    body: JSON.stringify(orderBody(number, { line_items: [{ line_number: 1, sku: "SKU-A", quantity: 1, unit_price: 3 }] })),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return number;
}

/** The orders GET /orders lists under this search. */
async function listed(base: string, search: string, from = ADMIN_ADDRESS): Promise<string[]> {
  const answer = await get<{ orders: { number: string }[] }>(base, `${ROOT}/orders?search=${encodeURIComponent(search)}`, from);
  expect(answer.status).toBe(200);
  return answer.body.orders.map((order) => order.number);
}

let replicaOnly = 0;
/** An order written on the replica alone (as root, past read_only; ids far above the primary's, so replication never meets them). */
async function orderOnReplica(number: string, createdAt = new Date()): Promise<number> {
  replicaOnly += 1;
  const id = 900_000 + replicaOnly;
  await pair.onReplica(
    `INSERT INTO orders (id, site_id, number, dateadded, payment_method, pay_6, contact_id, shipping_agent_code, shipping_agent_service, payload_hash, created_at, updated_at)
     VALUES (?, ?, ?, ?, 'pay_6', '1', 1, 'FEDEX', 'GROUND', REPEAT('a', 64), ?, NOW())`,
    [id, site.siteId, number, createdAt, createdAt],
  );
  // What the primary's triggers would have written for it: the search's pieces of its number, their counts and its count.
  // Paid with pay_6, which no order of the primary's uses, so its count row is one replication never touches.
  await pair.onReplica(
    "INSERT IGNORE INTO order_search_grams (order_id, gram, dateadded) SELECT ?, SUBSTRING(?, seq, n), ? FROM seq_1_to_48 JOIN (SELECT 3 AS n UNION ALL SELECT 4) k WHERE seq <= CHAR_LENGTH(?) - n + 1",
    [id, number, createdAt, number],
  );
  await pair.onReplica("INSERT INTO order_gram_counts (gram, slot, orders) SELECT gram, ? % 4, 1 FROM order_search_grams WHERE order_id = ? ON DUPLICATE KEY UPDATE orders = orders + 1", [id, id]);
  await pair.onReplica(
    "INSERT INTO order_counts (site_id, slot, imported, verified, ship_status, payment_method, failed, orders) VALUES (?, ? % 4, 0, 0, 0, 'pay_6', 0, 1) ON DUPLICATE KEY UPDATE orders = orders + 1",
    [site.siteId, id],
  );
  return id;
}

async function removeOrderOnReplica(id: number): Promise<void> {
  await pair.onReplica("DELETE FROM orders WHERE id = ?", [id]);
  await pair.onReplica("UPDATE order_gram_counts c JOIN order_search_grams g ON g.gram = c.gram AND c.slot = ? % 4 SET c.orders = c.orders - 1 WHERE g.order_id = ?", [id, id]);
  await pair.onReplica("DELETE FROM order_search_grams WHERE order_id = ?", [id]);
  await pair.onReplica("UPDATE order_counts SET orders = orders - 1 WHERE site_id = ? AND slot = ? % 4 AND payment_method = 'pay_6' AND imported = 0", [site.siteId, id]);
  await pair.onReplica("DELETE FROM order_counts WHERE orders = 0 AND payment_method = 'pay_6'");
}

async function adminAjax(fields: Record<string, unknown>) {
  const res = await fetch(`${api.url}/admin-ajax`, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: JSON.stringify(fields) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: { csv: string } }).data;
}

describe("without DATABASE_REPLICA_URL", () => {
  it("reads that tolerate lag use the primary's own client", async () => {
    // Idle connections end only with close(): not by the driver's silence timeout.
    const connections = openConnections(testConfig(), "replica-unset");
    try {
      expect(connections.replica).toBe(connections.prisma);
      expect(connections.replicaState).toBeUndefined();
    } finally {
      await connections.close();
    }
  });
});

describe("reads that tolerate lag", () => {
  it("open the replica's pool at the first of them, never write through it, and it closes with the other connections", async () => {
    const proxy = await new TcpProxy(pair.replicaPort).start();
    proxies.push(proxy);
    const replicaUrl = new URL(pair.replicaUrl);
    replicaUrl.port = String(proxy.port);
    // Idle connections end only with close(): not by the driver's silence timeout.
    const connections = openConnections(testConfig({ DATABASE_URL: pair.primaryUrl, DATABASE_REPLICA_URL: replicaUrl.toString(), DB_QUERY_TIMEOUT_MS: "600000" }), "replica-pool");
    try {
      await connections.prisma.$queryRaw`SELECT 1`;
      expect(proxy.clients).toBe(0);
      await listOrders(connections, {}, { skip: 0, take: 1 });
      expect(proxy.clients).toBeGreaterThan(0);
      // A write sent to the replica by mistake fails there (read_only); it is not passed on to the primary.
      await expect(connections.replica.$executeRaw`UPDATE orders SET verified = verified WHERE id = 0`).rejects.toThrow(/read-only/);
    } finally {
      await connections.close();
    }
    await until(() => proxy.clients === 0, () => `the replica's ${proxy.clients} connection(s) to close`);
  });

  it("come from the replica: the order list, the stats, CSV exports and report jobs show a row only the replica has", async () => {
    const id = await orderOnReplica("ONLY-ON-REPLICA", new Date("2025-03-03T10:00:00Z"));
    const url = `https://replica-only-${process.pid}.example`;
    await pair.onReplica("INSERT INTO managed_sites (id, name, url, status, created_at, updated_at) VALUES (900001, 'Replica only', ?, 'active', NOW(), NOW())", [url]);
    try {
      expect(await listed(api.url, "ONLY-ON-REPLICA")).toEqual(["ONLY-ON-REPLICA"]);
      // The order itself is read where it is written.
      expect((await get(api.url, `${ROOT}/orders/${id}`)).status).toBe(404);

      const pendingOnPrimary = await api.ctx.prisma.order.count({ where: { imported: 0 } });
      const stats = await get<{ orders: { pending_insert: number } }>(api.url, `${ROOT}/stats`);
      expect(stats.body.orders.pending_insert).toBe(pendingOnPrimary + 1);

      expect((await adminAjax({ action: "export_sites", status: "all" })).csv).toContain(url);
      expect(await api.ctx.prisma.managedSite.count({ where: { url } })).toBe(0);

      const reports = api.ctx.queues.get("reports");
      const worker = await startInProcessWorker({ WORKER_QUEUES: "reports", STORAGE_DIR: storage, DATABASE_URL: pair.primaryUrl, DATABASE_REPLICA_URL: pair.replicaUrl });
      try {
        const csv = await reportCsv(reports, worker, { type: "order-intake-daily", date: "2025-03-03" });
        expect(csv).toContain(`2025-03-03,${site.siteId},`);
        expect(csv.trim().split("\n")).toHaveLength(2);
      } finally {
        await worker.stop();
      }
    } finally {
      await removeOrderOnReplica(id);
      await pair.onReplica("DELETE FROM managed_sites WHERE id = 900001");
    }
  }, 180_000);

  it("lag behind while the replica falls behind, but the order just written reads back at once; they catch up when it applies again", async () => {
    // Every write so far applied: what a caller wrote before stays readable on the replica.
    await pair.caughtUp();
    await pair.stopApplying();
    let number: string;
    try {
      number = await postOrder(api.url);
      // Read-your-own-writes: the order detail comes from the primary.
      const stored = await api.ctx.prisma.order.findUniqueOrThrow({ where: { site_id_number: { site_id: site.siteId, number } } });
      const detail = await get(api.url, `${ROOT}/orders/${stored.id}`);
      expect(detail.status).toBe(200);
      expect(detail.body.number).toBe(number);
      // The list tolerates lag for other callers: the replica has received the write but not applied it.
      expect(await listed(api.url, number)).toEqual([]);
    } finally {
      await pair.startApplying();
    }
    await pair.caughtUp();
    expect(await listed(api.url, number)).toEqual([number]);
  }, 180_000);
});

async function reportCsv(reports: Queue, worker: Output, body: Record<string, string>): Promise<string> {
  const queued = await fetch(`${api.url}${ROOT}/reports`, { method: "POST", headers: { authorization: admin, "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(queued.status).toBe(202);
  const { job_id: jobId, report_id: reportId } = (await queued.json()) as { job_id: string; report_id: number };
  const done = await settled(reports, (await reports.getJob(jobId))!, worker, 120_000);
  expect(done.failedReason, worker.output()).toBeUndefined();
  const download = await fetch(`${api.url}${ROOT}/reports/${reportId}/download`, { headers: { authorization: admin } });
  expect(download.status).toBe(200);
  return download.text();
}

describe("reads after the caller's own writes", () => {
  it("see them though the replica has not applied them, through every API process; other callers still read the replica", async () => {
    // A second API process: the caller's last write is kept in Redis, so it reads its order there too.
    const second = await startApi({ DATABASE_URL: pair.primaryUrl, DATABASE_REPLICA_URL: pair.replicaUrl, STORAGE_DIR: storage, TRUST_PROXY: "loopback" }, "api-test-2");
    const caller = "198.51.100.7";
    // Every write so far applied: what a caller wrote before stays readable on the replica.
    await pair.caughtUp();
    await pair.stopApplying();
    let number: string;
    try {
      number = await postOrder(api.url, caller);
      // The program that pushed the order lists it (a user's application password, from the same address): it is there at once.
      expect(await listed(api.url, number, caller)).toEqual([number]);
      expect(await listed(second.url, number, caller)).toEqual([number]);
      // Another caller reads the replica, which has not applied the order yet.
      expect(await listed(second.url, number, "203.0.113.9")).toEqual([]);
    } finally {
      await pair.startApplying();
      await second.close();
    }
    await pair.caughtUp();
    // Once the replica has applied it, the caller's reads stay on the replica: a row only the replica has shows.
    const id = await orderOnReplica("RYW-ON-REPLICA");
    try {
      expect(await listed(api.url, "RYW-ON-REPLICA", caller)).toEqual(["RYW-ON-REPLICA"]);
    } finally {
      await pair.onReplica("DELETE FROM orders WHERE id = ?", [id]);
    }
  }, 180_000);
});

describe("a replica that lags", () => {
  async function lag(base: string): Promise<number | undefined> {
    const text = await (await fetch(`${base}/metrics`)).text();
    const line = /^mw_replica_lag_seconds (\S+)$/m.exec(text);
    return line ? Number(line[1]) : undefined;
  }

  it("shows its lag in /metrics; above REPLICA_MAX_LAG_SECONDS /readyz says degraded and every caller's reads use the primary until it catches up", async () => {
    const lagging = await startApi({ DATABASE_URL: pair.primaryUrl, DATABASE_REPLICA_URL: pair.replicaUrl, STORAGE_DIR: storage, TRUST_PROXY: "loopback", REPLICA_MAX_LAG_SECONDS: "1" }, "api-test-lag");
    try {
      // The lag is measured from the first lag-tolerant read on.
      await listed(lagging.url, "nothing");
      await pair.caughtUp();
      await until(async () => (await lag(lagging.url)) === 0, () => "the lag to be measured as 0");
      await pair.stopApplying();
      let number: string;
      try {
        number = await postOrder(lagging.url);
        await until(async () => ((await lag(lagging.url)) ?? 0) > 1, () => "the lag to pass 1 s");
        const ready = await fetch(`${lagging.url}/readyz`);
        expect(ready.status).toBe(200);
        const readiness = (await ready.json()) as { status: string; checks: { replica: { ok: boolean; error?: string; lag_seconds?: number } } };
        expect(readiness.status).toBe("degraded");
        expect(readiness.checks.replica.ok).toBe(false);
        expect(readiness.checks.replica.error).toMatch(/above REPLICA_MAX_LAG_SECONDS \(1\)/);
        expect(readiness.checks.replica.lag_seconds).toBeGreaterThanOrEqual(1);
        // A caller that wrote nothing reads the primary meanwhile: the order is there.
        expect(await listed(lagging.url, number, "203.0.113.10")).toEqual([number]);
      } finally {
        await pair.startApplying();
      }
      await pair.caughtUp();
      await until(async () => (await lag(lagging.url)) === 0, () => "the lag to fall back to 0");
      const back = (await (await fetch(`${lagging.url}/readyz`)).json()) as { checks: { replica: { ok: boolean } } };
      expect(back.checks.replica.ok).toBe(true);
      // Back on the replica: a row only the replica has shows again.
      const id = await orderOnReplica("LAG-ON-REPLICA");
      try {
        expect(await listed(lagging.url, "LAG-ON-REPLICA", "203.0.113.10")).toEqual(["LAG-ON-REPLICA"]);
      } finally {
        await pair.onReplica("DELETE FROM orders WHERE id = ?", [id]);
      }
    } finally {
      await lagging.close();
    }
  }, 180_000);
});

describe("a replica that is unreachable", () => {
  const POOL = 2;

  async function startApiProcess(primary: TcpProxy, replica: TcpProxy): Promise<{ proc: Spawned; url: string }> {
    const port = await closedPort();
    const through = (databaseUrl: string, proxy: TcpProxy) => {
      const url = new URL(databaseUrl);
      url.port = String(proxy.port);
      return url.toString();
    };
    const proc = spawnEntry("packages/api/src/main.ts", [], {
      DATABASE_URL: through(pair.primaryUrl, primary),
      DATABASE_REPLICA_URL: through(pair.replicaUrl, replica),
      PORT: String(port),
      DB_POOL_SIZE: String(POOL),
      SHUTDOWN_TIMEOUT_MS: "3000",
    });
    children.push(proc);
    await proc.waitFor(logged("api listening"), 120_000);
    return { proc, url: `http://127.0.0.1:${port}` };
  }

  it("does not stop the API starting or taking writes: reads fall back to the primary with one warning, /readyz says degraded, and the replica serves again once back", async () => {
    const primary = await new TcpProxy(Number(new URL(pair.primaryUrl).port)).start();
    const replica = await new TcpProxy(pair.replicaPort).start();
    proxies.push(primary, replica);
    replica.set("cut");
    const { proc, url } = await startApiProcess(primary, replica);
    expect(proc.output()).toMatch(/\(DATABASE_REPLICA_URL\).*Starting anyway: reads that tolerate lag use the primary until the replica answers\./);

    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    const readiness = (await ready.json()) as { status: string; checks: { database: { ok: boolean }; replica: { ok: boolean } } };
    expect(readiness.status).toBe("degraded");
    expect(readiness.checks.database.ok).toBe(true);
    expect(readiness.checks.replica.ok).toBe(false);

    // Writes, and lag-tolerant reads on the primary, all at once: the fallback shares the primary's Prisma pool.
    const numbers = await Promise.all(Array.from({ length: 6 }, () => postOrder(url)));
    const reads = await Promise.all(Array.from({ length: 12 }, (_, i) => (i % 2 ? get(url, `${ROOT}/stats`) : get(url, `${ROOT}/orders?search=RR-`))));
    expect(reads.map((read) => read.status)).toEqual(Array(12).fill(200));
    expect(primary.clients).toBeLessThanOrEqual(2 * POOL);
    for (const number of numbers) expect(await listed(url, number)).toEqual([number]);
    expect(logLines(proc, UNREACHABLE)).toHaveLength(1);
    expect(proc.output()).not.toMatch(/"level":"error"/);

    replica.set("pass");
    await proc.waitFor(logged(REACHABLE), 60_000);
    const id = await orderOnReplica("BACK-ON-REPLICA");
    try {
      expect(await listed(url, "BACK-ON-REPLICA")).toEqual(["BACK-ON-REPLICA"]);
      // The replica's own pool holds at most DB_POOL_SIZE.
      await Promise.all(Array.from({ length: 12 }, () => listed(url, "BACK-ON-REPLICA")));
      expect(replica.clients).toBeGreaterThan(0);
      expect(replica.clients).toBeLessThanOrEqual(POOL);
      const back = (await (await fetch(`${url}/readyz`)).json()) as { checks: { replica: { ok: boolean } } };
      expect(back.checks.replica.ok).toBe(true);
    } finally {
      await removeOrderOnReplica(id);
    }
    expect(logLines(proc, UNREACHABLE)).toHaveLength(1);
  }, 240_000);
});


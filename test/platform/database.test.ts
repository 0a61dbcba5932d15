import { createPrisma, type PrismaClient } from "@mw/platform";
import { createUser } from "@mw/domains/identity";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, closedPort, uniqueLogin } from "../support/api.ts";
import { testDatabaseUrl } from "../support/env.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";
import { logged, logLines, spawnEntry, type Spawned } from "../support/processes.ts";
import { TcpProxy } from "../support/tcp-proxy.ts";
import { until } from "../support/wait.ts";

// The API as a real process whose only way to MariaDB is a proxy the tests
// can cut (the server went away) or hang (it stopped answering).
const POOL = 3;
let prisma: PrismaClient;
let proxy: TcpProxy;
let api: Spawned | undefined;
let url: string;
let siteKey: string;
let basic: string;

beforeAll(async () => {
  prisma = createPrisma(testDatabaseUrl());
  ({ key: siteKey } = await createSiteWithKey(prisma));
  await seedItems(prisma, ["SKU-A"]);
  const user = await createUser({ prisma }, { login: uniqueLogin("dbout"), capabilities: ["manage_middleware"] });
  basic = basicAuth(user.login, user.application_password);
  const database = new URL(testDatabaseUrl());
  proxy = await new TcpProxy(Number(database.port || 3306), database.hostname).start();
});
afterEach(async () => {
  proxy.set("pass");
  if (api && api.child.exitCode === null && api.child.signalCode === null) {
    api.child.kill("SIGKILL");
    await api.exited();
  }
});
afterAll(async () => {
  await proxy.stop();
  await prisma.$disconnect();
});

async function startApi(env: Record<string, string> = {}): Promise<Spawned> {
  const database = new URL(testDatabaseUrl());
  database.host = `127.0.0.1:${proxy.port}`;
  const port = await closedPort();
  api = spawnEntry("packages/api/src/main.ts", [], {
    DATABASE_URL: database.toString(),
    PORT: String(port),
    DB_POOL_SIZE: String(POOL),
    SHUTDOWN_TIMEOUT_MS: "3000",
    ...env,
  });
  await api.waitFor(logged("api listening"));
  url = `http://127.0.0.1:${port}`;
  return api;
}

let orders = 0;
async function postOrder() {
  orders += 1;
  const started = Date.now();
  const res = await fetch(`${url}/middleware/v1/external/orders`, {
    method: "POST",
    headers: { authorization: `Bearer ${siteKey}`, "content-type": "application/json" },
    body: JSON.stringify(orderBody(`DB-${process.pid}-${orders}`)),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: Date.now() - started };
}

async function me() {
  const started = Date.now();
  const res = await fetch(`${url}/middleware/v1/auth/me`, { headers: { authorization: basic } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, ms: Date.now() - started };
}

const DB_ERROR = { code: "db_error", message: "Database error: the request could not be completed.", data: { status: 500 } };

describe("database connections", () => {
  it("opens none at idle and never more than two pools' worth under load", async () => {
    // Thirty requests queue on three connections: on a loaded machine the last wait longer than the default 2 s.
    await startApi({ DB_ACQUIRE_TIMEOUT_MS: "30000" });
    expect(proxy.clients).toBe(0);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? me() : postOrder())));
    expect(answers.map((a) => a.status).sort()).toEqual([...Array(15).fill(200), ...Array(15).fill(201)].sort());
    expect(proxy.clients).toBeGreaterThan(0);
    expect(proxy.clients).toBeLessThanOrEqual(2 * POOL);
  });
});

// Short timeouts for the outages: the bounds below leave a loaded machine room many times over and
// still tell "bounded" from "waits for ever".
const SHORT_TIMEOUTS = { DB_ACQUIRE_TIMEOUT_MS: "1000", DB_QUERY_TIMEOUT_MS: "2000" };

describe("database outages", () => {
  it("answers 500 db_error within the acquire timeout while the database is gone, logs it once, and recovers", async () => {
    await startApi(SHORT_TIMEOUTS);
    expect((await me()).status).toBe(200);
    proxy.set("cut");
    const answers = [];
    for (let i = 0; i < 2; i += 1) answers.push(await postOrder(), await me());
    for (const answer of answers) {
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual(DB_ERROR);
      expect(answer.ms).toBeLessThan(30_000);
    }
    expect(logLines(api!, "database unreachable: requests answer 500 db_error until it is back")).toHaveLength(1);
    expect(api!.output()).not.toMatch(/"level":"error"/);

    proxy.set("pass");
    await api!.waitFor(logged("database reachable again"));
    expect((await postOrder()).status).toBe(201);
    expect((await me()).status).toBe(200);
  }, 120_000);

  it("answers every request in bounded time while the database hangs, and SIGTERM still exits in the shutdown timeout", async () => {
    await startApi(SHORT_TIMEOUTS);
    expect((await me()).status).toBe(200);
    proxy.set("hang");
    const answers = await Promise.all([postOrder(), me(), postOrder(), me()]);
    for (const answer of answers) {
      expect(answer.body).toEqual(DB_ERROR);
      expect(answer.ms).toBeLessThan(30_000);
    }
    const pending = postOrder().catch(() => null);
    await until(() => proxy.clients > 0, () => "a connection attempt to hang");
    const stopped = Date.now();
    api!.child.kill("SIGTERM");
    await api!.exited();
    expect(Date.now() - stopped).toBeLessThan(3000 + 15_000);
    await pending;
  }, 120_000);
});

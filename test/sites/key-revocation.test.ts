import { createPrisma, createRedis, type PrismaClient } from "@mw/platform";
import { createUser } from "@mw/domains/identity";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basicAuth, closedPort, restCall, startApi, uniqueLogin, type TestApi } from "../support/api.ts";
import { testDatabaseUrl } from "../support/env.ts";
import { createSiteWithKey, orderBody, seedItems } from "../support/fixtures.ts";
import { spawnEntry, type Spawned } from "../support/processes.ts";
import { until } from "../support/wait.ts";

// Site keys are cached in each API process (spec 1, 5: revocation is immediate).
// Two real API processes: a key revoked through one fails on the very next
// request to the other, which had the key in its cache.
let prisma: PrismaClient;
let admin: string;
const apis: { proc: Spawned; url: string }[] = [];
let seq = 0;

async function startApiProcess(): Promise<{ proc: Spawned; url: string }> {
  const port = await closedPort();
  const proc = spawnEntry("packages/api/src/main.ts", [], { PORT: String(port), HOST: "127.0.0.1", LOG_LEVEL: "info" });
  const url = `http://127.0.0.1:${port}`;
  await until(() => fetch(`${url}/healthz`).then((res) => res.ok, () => false), () => `the API on ${url} to answer; output:\n${proc.output()}`, 60_000);
  return { proc, url };
}

function submit(url: string, key: string) {
  seq += 1;
  return restCall(`${url}/middleware/v1/external/orders`, "POST", orderBody(`REV-${process.pid}-${seq}`), `Bearer ${key}`);
}

beforeAll(async () => {
  prisma = createPrisma(testDatabaseUrl(), { connectionLimit: 2 });
  await seedItems(prisma, ["SKU-A", "SKU-B"]);
  const user = await createUser({ prisma }, { login: uniqueLogin("revoker"), capabilities: ["manage_middleware"] });
  admin = basicAuth(user.login, user.application_password);
  apis.push(...(await Promise.all([startApiProcess(), startApiProcess()])));
}, 90_000);

afterAll(async () => {
  await Promise.all(apis.map(async ({ proc }) => {
    proc.child.kill("SIGTERM");
    await proc.exited();
  }));
  await prisma.$disconnect();
});

describe("site API key revocation across API processes", () => {
  it("a key revoked through one process fails on the very next request to another, every time", async () => {
    const [a, b] = [apis[0]!, apis[1]!];
    for (let round = 0; round < 10; round += 1) {
      const { siteId, keyId, key } = await createSiteWithKey(prisma);
      // Twice, so the second is served from b's cache.
      expect((await submit(b.url, key)).status).toBe(201);
      expect((await submit(b.url, key)).status).toBe(201);
      expect((await restCall(`${a.url}/middleware/v1/sites/${siteId}/api-keys/${keyId}`, "DELETE", undefined, admin)).status).toBe(200);
      const refused = await submit(b.url, key);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: "rest_forbidden", message: "invalid or revoked API key" });
    }
  }, 90_000);

  it("a process that lost its invalidation subscription reads keys from the database until it has it back", async () => {
    const api: TestApi = await startApi();
    const redis = createRedis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
    try {
      const { keyId, key } = await createSiteWithKey(prisma);
      expect((await submit(api.url, key)).status).toBe(201);
      expect((await submit(api.url, key)).status).toBe(201);
      // The subscriber connections drop (other processes' too; they come back on their own)...
      await redis.client("KILL", "TYPE", "pubsub");
      await until(() => !api.ctx.invalidation.isLive(), () => "the API to notice its subscription is gone");
      // ... and the key is revoked by something that publishes nothing.
      await prisma.siteApiKey.update({ where: { id: keyId }, data: { revoked_at: new Date() } });
      expect((await submit(api.url, key)).status).toBe(401);
      // Back to serving from memory once subscribed again: a fresh key works, its revocation through the route is seen.
      const fresh = await createSiteWithKey(prisma);
      await until(() => api.ctx.invalidation.isLive(), () => "the API to subscribe again");
      expect((await submit(api.url, fresh.key)).status).toBe(201);
      expect((await restCall(`${api.url}/middleware/v1/sites/${fresh.siteId}/api-keys/${fresh.keyId}`, "DELETE", undefined, admin)).status).toBe(200);
      expect((await submit(api.url, fresh.key)).status).toBe(401);
    } finally {
      await redis.quit();
      await api.close();
    }
  }, 60_000);
});

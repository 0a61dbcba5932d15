import { createPrisma, createRedis, parseConfig, Queues, type PrismaClient, type QueueName, type RedisClient } from "@mw/platform";
import { FakeErp } from "../fakes/erp.ts";
import { FakeStorefrontA } from "../fakes/storefront-a.ts";
import { FakeStorefrontB } from "../fakes/storefront-b.ts";
import { startInProcessWorker, type InProcessWorker } from "./in-process-worker.ts";
import { logged } from "./processes.ts";
import { until } from "./wait.ts";

/**
 * What the storefront sync tests run against: this test worker's database and
 * queues, fakes of both storefronts and of the ERP, and the worker's runtime
 * serving `queues` in the test process.
 */
export interface SyncHarness {
  prisma: PrismaClient;
  redis: RedisClient;
  queues: Queues;
  /** The ENCRYPTION_KEY the worker reads site credentials with. */
  key: Buffer;
  erp: FakeErp;
  fakeA: FakeStorefrontA;
  fakeB: FakeStorefrontB;
  worker: InProcessWorker;
  close(): Promise<void>;
}

export async function startSyncHarness(queueNames: QueueName[], env: Record<string, string> = {}): Promise<SyncHarness> {
  const erpToken = "erp-sync-token";
  const prisma = createPrisma(process.env.DATABASE_URL!);
  const redis = createRedis(process.env.REDIS_URL!);
  const queues = new Queues(redis, process.env.QUEUE_PREFIX!);
  // Jobs other test files left under this prefix would otherwise run here.
  for (const name of queueNames) await queues.get(name).obliterate({ force: true });
  const [erp, fakeA, fakeB] = await Promise.all([new FakeErp(erpToken).start(), new FakeStorefrontA().start(), new FakeStorefrontB().start()]);
  const worker = await startInProcessWorker({ WORKER_QUEUES: queueNames.join(","), ERP_BASE_URL: erp.url, ERP_TOKEN: erpToken, HTTP_TIMEOUT_MS: "3000", ...env });
  await worker.waitFor(logged("workers started"));
  // A site created while the worker reconciles its tracking schedules would get a scheduler, whose run would race the test's own.
  if (queueNames.includes("tracking")) await worker.waitFor(logged("tracking schedules reconciled"));
  if (queueNames.includes("inventory")) {
    // At the top of the hour the worker's sweep would queue full syncs of every site beside a test's own runs.
    const inventory = queues.get("inventory");
    await until(async () => (await inventory.getJobScheduler("inventory-sweep")) !== undefined, () => "the worker to register the inventory-sweep schedule");
    await inventory.removeJobScheduler("inventory-sweep");
  }
  return {
    prisma,
    redis,
    queues,
    key: parseConfig(process.env).ENCRYPTION_KEY,
    erp,
    fakeA,
    fakeB,
    worker,
    async close() {
      await worker.stop();
      for (const name of queueNames) await queues.get(name).obliterate({ force: true });
      await Promise.all([erp.stop(), fakeA.stop(), fakeB.stop()]);
      await queues.close();
      await redis.quit();
      await prisma.$disconnect();
    },
  };
}

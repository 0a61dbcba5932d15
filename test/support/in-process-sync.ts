import { createLogger, createPrisma, createRedis, Queues, type Config, type Logger, type PrismaClient, type RedisClient } from "@mw/platform";
import { FakeErp } from "../fakes/erp.ts";
import { FakeStorefrontA } from "../fakes/storefront-a.ts";
import { testConfig } from "./api.ts";

/**
 * What a sync use case needs when a test calls it in process, without a
 * worker: this test worker's database and queues, fakes of BigCommerce and the
 * ERP, and a progress that keeps what it was told.
 */
export interface InProcessSync {
  deps: { prisma: PrismaClient; redis: RedisClient; queues: Queues; config: Config; log: Logger; progress(done: number, total: number, note?: string): Promise<void> };
  progress: [number, number, string | undefined][];
  /** The ENCRYPTION_KEY site credentials are stored with. */
  key: Buffer;
  erp: FakeErp;
  fakeA: FakeStorefrontA;
  close(): Promise<void>;
}

export async function startInProcessSync(name: string): Promise<InProcessSync> {
  const erpToken = "erp-in-process-token";
  const prisma = createPrisma(process.env.DATABASE_URL!);
  const redis = createRedis(process.env.REDIS_URL!);
  const queues = new Queues(redis, process.env.QUEUE_PREFIX!);
  const [erp, fakeA] = await Promise.all([new FakeErp(erpToken).start(), new FakeStorefrontA().start()]);
  const config = testConfig({ ERP_BASE_URL: erp.url, ERP_TOKEN: erpToken, HTTP_TIMEOUT_MS: "3000" });
  const log = createLogger(name, { LOG_DIR: "/tmp/mw-test-logs", LOG_LEVEL: "error", LOG_STDOUT: false });
  const progress: InProcessSync["progress"] = [];
  return {
    deps: { prisma, redis, queues, config, log, progress: async (done, total, note) => void progress.push([done, total, note]) },
    progress,
    key: config.ENCRYPTION_KEY,
    erp,
    fakeA,
    async close() {
      await Promise.all([erp.stop(), fakeA.stop()]);
      await queues.close();
      await redis.quit();
      await prisma.$disconnect();
    },
  };
}

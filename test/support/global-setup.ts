import { createRedis } from "@mw/shared";
import { dropDatabase, migrate } from "@mw/shared/migrations/apply";
import { testDatabaseUrl, testQueuePrefix } from "./env.ts";
import { MAX_WORKERS } from "./workers.ts";

// One database and one Redis key prefix per vitest worker slot (VITEST_POOL_ID
// runs 1..MAX_WORKERS), emptied once per run so every run starts clean.
export default async function setup(): Promise<void> {
  const redis = createRedis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
  try {
    for (let slot = 1; slot <= MAX_WORKERS; slot += 1) {
      const url = testDatabaseUrl(String(slot));
      await dropDatabase(url);
      await migrate(url);
      const keys: string[] = [];
      for await (const batch of redis.scanStream({ match: `${testQueuePrefix(String(slot))}:*`, count: 1000 })) {
        keys.push(...(batch as string[]));
      }
      if (keys.length) await redis.unlink(...keys);
    }
  } finally {
    await redis.quit();
  }
}

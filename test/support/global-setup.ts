import { createRedis, unlinkMatching } from "@mw/platform";
import { dropDatabase, listDatabases, migrate } from "../../scripts/migrations/apply.ts";
import { startLocalServices } from "../../scripts/services/local.ts";
import { testBaseDatabaseUrl, testDatabaseUrl, testEnv, testQueuePrefix } from "./env.ts";
import { alive } from "./processes.ts";
import { MAX_WORKERS } from "./workers.ts";

const RUN = String(process.pid);

async function deleteKeys(pattern: string): Promise<void> {
  const redis = createRedis(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");
  try {
    await unlinkMatching(redis, pattern);
  } finally {
    await redis.quit();
  }
}

/** Databases and key prefixes left by runs whose process is gone (killed, crashed). */
async function dropLeftovers(): Promise<void> {
  for (const name of await listDatabases(testDatabaseUrl("0", RUN), "^mw_test_[0-9]+_")) {
    const [, pid, suffix] = /^mw_test_(\d+)_(.+)$/.exec(name)!;
    if (alive(Number(pid))) continue;
    await dropDatabase(testDatabaseUrl(suffix!, pid));
    await deleteKeys(`${testQueuePrefix(suffix!, pid)}:*`);
  }
}

// One database and one Redis key prefix per vitest worker slot (VITEST_POOL_ID
// runs 1..MAX_WORKERS) and per run; the teardown removes them again.
export default async function setup(): Promise<() => Promise<void>> {
  process.env.MW_TEST_RUN = RUN;
  // On a machine with MariaDB and Redis installed but not running, the tests run their own (as `pnpm services`);
  // a running MariaDB that lacks the tests' user gets it, as `pnpm start` does.
  const services = await startLocalServices({ databaseUrl: testBaseDatabaseUrl(), redisUrl: testEnv().REDIS_URL! });
  for (const line of services.started) console.log(`tests started ${line}`);
  for (const line of services.prepared) console.log(`tests ${line}`);
  await dropLeftovers();
  const slots = Array.from({ length: MAX_WORKERS }, (_, i) => String(i + 1));
  for (const slot of slots) await migrate(testDatabaseUrl(slot, RUN));
  return async () => {
    for (const slot of slots) {
      await dropDatabase(testDatabaseUrl(slot, RUN));
      await deleteKeys(`${testQueuePrefix(slot, RUN)}:*`);
    }
    await services.stop();
  };
}

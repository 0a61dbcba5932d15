import { randomBytes } from "node:crypto";
import { createRedis, unlinkMatching } from "@mw/platform";
import { dropDatabase, migrate } from "../../scripts/migrations/apply.ts";

/** Removes a bench's queue keys: jobs left from an earlier run would make Redis slower with every run. */
export async function clearQueuePrefix(prefix: string): Promise<void> {
  const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  try {
    await unlinkMatching(redis, `${prefix}:*`);
  } finally {
    await redis.quit();
  }
}

/**
 * A fresh, migrated database for one benchmark and the environment the
 * platform's processes run with against it. Each bench names its own database
 * and the queue prefix is the database's name, so two benches (or two people
 * running one bench with their own BENCH_DATABASE_URL) never share data.
 */
export async function freshBenchEnvironment(
  name: string,
  extra: Record<string, string> = {},
): Promise<{ env: Record<string, string> & { QUEUE_PREFIX: string }; databaseUrl: string; key: Buffer }> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? `mysql://mw:mw@127.0.0.1:3306/mw_bench_${name}`;
  const prefix = new URL(databaseUrl).pathname.slice(1);
  // BENCH_KEEP_DATABASE=1 runs a bench on a database already filled (bench:data's), e.g. intake beside a year of orders.
  if (process.env.BENCH_KEEP_DATABASE !== "1") await dropDatabase(databaseUrl);
  await migrate(databaseUrl);
  await clearQueuePrefix(prefix);
  const key = randomBytes(32);
  const env = {
    NODE_ENV: "production",
    // Plain HTTP on 127.0.0.1, no TLS proxy in front.
    REQUIRE_HTTPS: "false",
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: prefix,
    ENCRYPTION_KEY: key.toString("hex"),
    LOG_LEVEL: "info",
    LOG_STDOUT: "false",
    LOG_DIR: "/tmp/mw-bench-logs",
    ...extra,
  };
  return { env, databaseUrl, key };
}

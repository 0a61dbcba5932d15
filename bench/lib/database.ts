import { randomBytes } from "node:crypto";
import { dropDatabase, migrate } from "@mw/shared/migrations/apply";

/**
 * A fresh, migrated database for one benchmark and the environment the
 * platform's processes run with against it. Each bench names its own database
 * and queue prefix, so two benches never share data.
 */
export async function freshBenchEnvironment(
  name: string,
  extra: Record<string, string> = {},
): Promise<{ env: Record<string, string> & { QUEUE_PREFIX: string }; databaseUrl: string; key: Buffer }> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? `mysql://mw:mw@127.0.0.1:3306/mw_bench_${name}`;
  await dropDatabase(databaseUrl);
  await migrate(databaseUrl);
  const key = randomBytes(32);
  const env = {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: `mwbench${name}`,
    ENCRYPTION_KEY: key.toString("hex"),
    LOG_LEVEL: "warn",
    LOG_STDOUT: "false",
    LOG_DIR: "/tmp/mw-bench-logs",
    ...extra,
  };
  return { env, databaseUrl, key };
}

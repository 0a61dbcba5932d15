import { randomBytes } from "node:crypto";
import { dropDatabase, migrate } from "@mw/shared/migrations/apply";

export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? "mysql://mw:mw@127.0.0.1:3306/mw_bench";

/** A fresh, migrated bench database and the environment the platform's processes run with against it. */
export async function freshBenchEnvironment(port: number): Promise<Record<string, string>> {
  await dropDatabase(BENCH_DATABASE_URL);
  await migrate(BENCH_DATABASE_URL);
  return {
    NODE_ENV: "production",
    DATABASE_URL: BENCH_DATABASE_URL,
    QUEUE_PREFIX: "mwbench",
    ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    LOG_LEVEL: "warn",
    LOG_STDOUT: "false",
    LOG_DIR: "/tmp/mw-bench-logs",
    PORT: String(port),
  };
}

import { dropDatabase, migrate } from "@mw/shared/migrations/apply";
import { testDatabaseUrl } from "./env.ts";
import { MAX_WORKERS } from "./workers.ts";

// One database per vitest worker slot (VITEST_POOL_ID runs 1..MAX_WORKERS),
// dropped and migrated once per run, so every run starts from an empty schema.
export default async function setup(): Promise<void> {
  for (let slot = 1; slot <= MAX_WORKERS; slot += 1) {
    const url = testDatabaseUrl(String(slot));
    await dropDatabase(url);
    await migrate(url);
  }
}

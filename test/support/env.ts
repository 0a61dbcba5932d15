import { configSchema } from "../../packages/platform/src/config/config.ts";

// Every vitest worker gets its own database and BullMQ prefix, so test files
// run in parallel without seeing each other (design section 8). Names carry
// the run's id (the main vitest process id, set by global-setup), so two runs
// on one machine never touch each other's data either.
const base = process.env.TEST_DATABASE_URL ?? "mysql://mw:mw@127.0.0.1:3306/mw_test";

/** The URL the tests' databases are named after (TEST_DATABASE_URL): its user may create and drop each of them. */
export function testBaseDatabaseUrl(): string {
  return base;
}

export function runId(): string {
  return process.env.MW_TEST_RUN ?? String(process.pid);
}

function slot(): string {
  return process.env.VITEST_POOL_ID ?? "0";
}

export function testDatabaseUrl(suffix = slot(), run = runId()): string {
  const url = new URL(base);
  url.pathname = `${url.pathname}_${run}_${suffix}`;
  return url.toString();
}

export function testQueuePrefix(suffix = slot(), run = runId()): string {
  return `mwtest${run}_${suffix}`;
}

/**
 * Every platform setting empty: empty counts as unset, and `.env` fills in only
 * variables that are not set at all, so neither the checkout's `.env` nor the
 * caller's shell (an ERP_TOKEN after the README's quick start, say) reaches a test.
 */
const NO_SETTINGS = Object.fromEntries(Object.keys(configSchema.shape).map((name) => [name, ""]));

/** The environment a test process (and any child process it spawns) runs with: the settings below and no other. */
export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    ...NO_SETTINGS,
    NODE_ENV: "test",
    DATABASE_URL: testDatabaseUrl(),
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    QUEUE_PREFIX: testQueuePrefix(),
    ENCRYPTION_KEY: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
    LOG_STDOUT: "false",
    // The tests read their children's JSON lines, whatever the developer's shell sets.
    LOG_FORMAT: "json",
    LOG_LEVEL: "debug",
    LOG_DIR: process.env.TEST_LOG_DIR ?? "/tmp/mw-test-logs",
    // Every test file of a slot logs in from 127.0.0.1; only the throttle's own tests use the real limit.
    LOGIN_FAILURES_PER_IP: "100000",
    // The fakes of external systems listen on 127.0.0.1; the egress guard's own tests turn it back on.
    ALLOW_PRIVATE_URLS: "true",
    // The same for the scheduled endpoints' per-address limit; its own test sets a small one.
    SCHEDULED_RATE_LIMIT_PER_MINUTE: "100000",
    // And for the acquirer webhook's, on by default; its own test sets a small one.
    WEBHOOK_RATE_LIMIT_PER_MINUTE: "100000",
    // The platform's own hourly and daily runs (time sync, milestones, document refresh) would call the
    // fakes in the middle of other tests; their own test sets short patterns. 1 January, 00:00 UTC: never in a run.
    TIME_SYNC_SCHEDULE: "0 0 1 1 *",
    MILESTONES_SCHEDULE: "0 0 1 1 *",
    KNOWLEDGE_REFRESH_SCHEDULE: "0 0 1 1 *",
    // Retention deletes whatever is old; other tests' rows are written now, but a purge in their midst is not theirs to see.
    RETENTION_SCHEDULE: "0 0 1 1 *",
    ...overrides,
  };
}

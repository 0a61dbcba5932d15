// Every vitest worker gets its own database and BullMQ prefix, so test files
// run in parallel without seeing each other (design section 8).
const base = process.env.TEST_DATABASE_URL ?? "mysql://mw:mw@127.0.0.1:3306/mw_test";

export function testDatabaseUrl(suffix = process.env.VITEST_POOL_ID ?? "0"): string {
  const url = new URL(base);
  url.pathname = `${url.pathname}_${suffix}`;
  return url.toString();
}

export function testQueuePrefix(suffix = process.env.VITEST_POOL_ID ?? "0"): string {
  return `mwtest${suffix}`;
}

/** The environment a test process (and any child process it spawns) runs with. */
export function testEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: "test",
    DATABASE_URL: testDatabaseUrl(),
    REDIS_URL: process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379",
    QUEUE_PREFIX: testQueuePrefix(),
    ENCRYPTION_KEY: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
    LOG_STDOUT: "false",
    LOG_LEVEL: "debug",
    LOG_DIR: process.env.TEST_LOG_DIR ?? "/tmp/mw-test-logs",
    ...overrides,
  };
}

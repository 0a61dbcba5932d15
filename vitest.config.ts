import { configDefaults, defineConfig } from "vitest/config";
import { MAX_WORKERS } from "./test/support/workers.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "packages/*/src/**/*.test.ts"],
    // Run by `pnpm test:cluster` (vitest.cluster.config.ts) against a cluster and a Sentinel group of their own,
    // and by `pnpm test:system` (vitest.system.config.ts): the whole platform installed, built and started.
    exclude: [...configDefaults.exclude, "test/cluster/**", "test/system/**"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    pool: "forks",
    reporters: ["default", "./test/support/summary-reporter.ts"],
    maxWorkers: MAX_WORKERS,
    // Generous, so a loaded machine (spawned processes start slowly there) fails no test; a test
    // waits on a condition, never on a clock, so a passing run is no slower for it.
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});

import { configDefaults, defineConfig } from "vitest/config";
import { MAX_WORKERS } from "./test/support/workers.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "packages/*/src/**/*.test.ts"],
    // Run by `pnpm test:cluster` (vitest.cluster.config.ts) against a cluster and a Sentinel group of their own.
    exclude: [...configDefaults.exclude, "test/cluster/**"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    pool: "forks",
    reporters: ["default", "./test/support/summary-reporter.ts"],
    maxWorkers: MAX_WORKERS,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

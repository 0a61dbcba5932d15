import { defineConfig } from "vitest/config";
import { MAX_WORKERS } from "./test/support/workers.ts";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "packages/*/src/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    pool: "forks",
    reporters: ["default", "./test/support/summary-reporter.ts"],
    maxWorkers: MAX_WORKERS,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

import { defineConfig } from "vitest/config";

// `pnpm test:cluster`: the behaviour that touches Redis, against a local Redis
// Cluster and a Sentinel group (test/cluster/global-setup.ts). One file at a
// time: files stop and start Redis nodes, and a loaded machine must not turn a
// failover's few seconds into a timeout.
export default defineConfig({
  test: {
    include: ["test/cluster/**/*.test.ts"],
    globalSetup: ["test/cluster/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    pool: "forks",
    fileParallelism: false,
    maxWorkers: 1,
    reporters: ["default", "./test/support/summary-reporter.ts"],
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});

import { configDefaults, defineConfig, type TestUserConfig } from "vitest/config";
import { MAX_WORKERS } from "./test/support/workers.ts";

/**
 * Files that need a process of their own. Every other file shares its worker's module graph
 * with the files before it (`isolate: false`): loading the platform and the domains once per
 * worker rather than once per file saves about 300 s of worker time. A file belongs here when
 * it replaces a module (`vi.mock`), which modules already loaded by an earlier file would not see.
 */
const ISOLATED = ["test/ai/constant-time-key.test.ts"];

const include = ["test/**/*.test.ts", "packages/*/src/**/*.test.ts"];
// Run by `pnpm test:cluster` (vitest.cluster.config.ts) against a cluster and a Sentinel group of their own,
// and by `pnpm test:system` (vitest.system.config.ts): the whole platform installed, built and started.
const exclude = [...configDefaults.exclude, "test/cluster/**", "test/system/**"];

/** What every test file runs with, here and in vitest.system.config.ts. */
export const suiteOptions: TestUserConfig = {
  globalSetup: ["test/support/global-setup.ts"],
  setupFiles: ["test/support/setup.ts"],
  pool: "forks",
  reporters: ["default", "./test/support/summary-reporter.ts"],
  maxWorkers: MAX_WORKERS,
  // Generous, so a loaded machine (spawned processes start slowly there) fails no test; a test
  // waits on a condition, never on a clock, so a passing run is no slower for it.
  testTimeout: 120_000,
  hookTimeout: 180_000,
  // The same for a page polled until it shows what a click did: vitest's default second is one busy moment.
  expect: { poll: { timeout: 15_000 } },
};

export default defineConfig({
  test: {
    ...suiteOptions,
    projects: [
      { extends: true, test: { name: "shared", include, exclude: [...exclude, ...ISOLATED], isolate: false } },
      { extends: true, test: { name: "isolated", include: ISOLATED, exclude } },
    ],
  },
});

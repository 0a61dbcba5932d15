import { defineConfig } from "vitest/config";

// `pnpm test:osticket` (issue 22): the osTicket plugin against a real osTicket, apart from `pnpm test`.
export default defineConfig({
  test: {
    include: ["integrations/osticket/test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    pool: "forks",
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
});

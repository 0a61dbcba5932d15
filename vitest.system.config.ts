import { defineConfig } from "vitest/config";
import { suiteOptions } from "./vitest.config.ts";

// `pnpm test:system`: the whole platform as a newcomer meets it (the README's quick start from a fresh
// clone, a first start, the demo): each installs, builds or starts everything, minutes apiece, so they
// run apart from `pnpm test`, with its databases, prefixes, environment and timeouts.
export default defineConfig({
  test: { ...suiteOptions, include: ["test/system/**/*.test.ts"] },
});

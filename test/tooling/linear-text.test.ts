import { describe, expect, it } from "vitest";
import { adversarialTexts, TEXT_FUNCTIONS } from "../fixtures/adversarial-text.ts";

/*
 * docs/security.md, "Text handling: linear time": each function that reads request, customer or upstream text
 * answers 1 MB of the text that makes a backtracking regex slow in well under a second. The quadratic versions
 * took 12 s for 100 KB of spaces between two letters, so minutes for 1 MB. The bound is on the process's CPU
 * time, not the wall clock, and is generous (linear versions take tens of milliseconds, `pnpm bench:text`): other
 * processes on the machine do not move it. The sizes grow by four, so a quadratic version fails at the first size
 * where it passes the bound instead of running for minutes at the last.
 */
const BOUND_MS = 1000;
const SIZES = [64 * 1024, 256 * 1024, 1024 * 1024];

function cpuMs(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe("text handling in linear time", () => {
  it.each(Object.entries(TEXT_FUNCTIONS))("%s answers every 1 MB shape within the bound", (_name, read) => {
    for (const size of SIZES) {
      const slow = Object.entries(adversarialTexts(size))
        .map(([shape, text]) => ({ shape, size, ms: Math.round(cpuMs(() => read(text))) }))
        .filter((run) => run.ms > BOUND_MS);
      expect(slow).toEqual([]);
    }
  });
});

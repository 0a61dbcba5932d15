import { redact } from "@mw/platform";
import { describe, expect, it } from "vitest";
import { adversarialTexts, TEXT_FUNCTIONS } from "../fixtures/adversarial-text.ts";

/*
 * docs/security.md, "Text handling: linear time": each function that reads request, customer or upstream text
 * answers 1 MB of the text that makes a backtracking regex slow in well under a second. The quadratic versions
 * took 12 s for 100 KB of spaces between two letters, so minutes for 1 MB. The bound is on the process's CPU
 * time, not the wall clock, and is generous (linear versions take tens of milliseconds, `pnpm bench:text`): other
 * processes on the machine do not move it. The sizes grow by four from 4 KB, and the first call over the bound
 * fails the test: a quadratic version fails at the first size where it goes over the bound, within seconds, instead of
 * running for minutes at 1 MB (a synchronous call cannot be stopped from outside).
 */
const BOUND_MS = 1000;
const SIZES = [4, 16, 64, 256, 1024].map((kilobytes) => kilobytes * 1024);

function cpuMs(run: () => unknown): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

describe("text handling in linear time", () => {
  it.each(Object.entries(TEXT_FUNCTIONS))("%s answers every shape up to 1 MB within the bound", (_name, read) => {
    for (const size of SIZES) {
      for (const [shape, text] of Object.entries(adversarialTexts(size))) expect(cpuMs(() => read(text)), `${shape}, ${size} characters`).toBeLessThan(BOUND_MS);
    }
  });
});

/*
 * The log redaction reads every logged error's message and stack, which may quote request text. Its search for
 * secret-named `name: "value"` members scanned a long word from each of its characters (16 KB in 60 ms, so about 4 s
 * at 128 KB), and an unclosed value from each opening inside it.
 */
const REDACTION_SHAPES: Record<string, (length: number) => string> = {
  "one long word": (length) => "a".repeat(length),
  "a long word with a secret's name in it, no colon": (length) => "password".repeat(length / 8),
  "a long hyphenated name": (length) => "x-".repeat(length / 2),
  "openings of values that never close": (length) => 'a:"\\"'.repeat(length / 5),
  "a secret-named member whose value never closes": (length) => `password: "${"\\".repeat(length / 2)}`,
  "colons before spaces": (length) => `a:${" ".repeat(length)}`,
};

describe("log redaction in linear time", () => {
  it.each(Object.entries(REDACTION_SHAPES))("redacts an error holding %s, up to 1 MB, within the bound", (_shape, make) => {
    for (const size of SIZES) {
      const error = new Error(make(size));
      expect(cpuMs(() => redact(error)), `${size} characters`).toBeLessThan(BOUND_MS);
    }
  });
});

import { rewriteByRules } from "@mw/domains/ai";
import { describe, expect, it } from "vitest";
import { REWRITE_CASES } from "../fixtures/rewrite-cases.ts";

describe("the built-in rewrite (whitespace and typography only)", () => {
  it("cleans up each case of the corpus as written, in every language, without changing a word", () => {
    const wrong = REWRITE_CASES.filter((item) => rewriteByRules(item.text) !== item.rewritten).map((item) => `${item.name}: ${JSON.stringify(rewriteByRules(item.text))}`);
    expect(wrong).toEqual([]);
  });

  it("gives the same text back when run on its own answer", () => {
    for (const item of REWRITE_CASES) expect(rewriteByRules(item.rewritten)).toBe(item.rewritten);
  });
});

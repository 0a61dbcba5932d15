import { parseEmailReply } from "@mw/domains/ai";
import { describe, expect, it } from "vitest";
import { EMAIL_THREADS } from "../fixtures/email-threads.ts";

const normalise = (text: string) => text.replace(/[ \t]+/g, " ").replace(/\s*\n\s*/g, "\n").trim();

describe("the built-in e-mail reply parser", () => {
  it("gets at least 90 % of the corpus exactly right after whitespace normalisation", () => {
    const wrong = EMAIL_THREADS.filter((thread) => normalise(parseEmailReply(thread.thread)) !== normalise(thread.reply));
    expect(EMAIL_THREADS.length).toBeGreaterThanOrEqual(70);
    expect(wrong.map((thread) => `${thread.name}: ${JSON.stringify(parseEmailReply(thread.thread))}`)).toEqual([]);
  });

  it("keeps a message that has no history as it is, apart from the signature", () => {
    expect(parseEmailReply("Just one line")).toBe("Just one line");
    expect(parseEmailReply("Line one\n\nLine two")).toBe("Line one\n\nLine two");
  });
});

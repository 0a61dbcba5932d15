import { describe, expect, it } from "vitest";
import { trimEndChars, truncateCodePoints } from "./text.ts";

describe("truncateCodePoints", () => {
  it("keeps an emoji whole at the cut and counts it as one character", () => {
    expect(truncateCodePoints("ab😀cd", 3)).toBe("ab😀");
    expect(truncateCodePoints("ab😀cd", 2)).toBe("ab");
    expect(truncateCodePoints("😀😀😀", 2)).toBe("😀😀");
  });

  it("leaves text within the limit as it is", () => {
    expect(truncateCodePoints("héllo", 5)).toBe("héllo");
    expect(truncateCodePoints("😀😀", 2)).toBe("😀😀");
    expect(truncateCodePoints("", 0)).toBe("");
  });
});

describe("trimEndChars", () => {
  it("strips the trailing run of the given characters only, as /[…]+$/ does", () => {
    expect(trimEndChars("https://shop.example/wp//", "/")).toBe("https://shop.example/wp");
    expect(trimEndChars("a//b", "/")).toBe("a//b");
    expect(trimEndChars("Printer offline.'\"", ".\"'")).toBe("Printer offline");
    expect(trimEndChars("///", "/")).toBe("");
    expect(trimEndChars("", "/")).toBe("");
  });
});

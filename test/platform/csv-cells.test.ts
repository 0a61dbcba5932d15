import { csvTextCell } from "@mw/platform";
import { describe, expect, it } from "vitest";

// docs/security.md, "CSV exports": a cell a spreadsheet would run as a formula gets a leading apostrophe.
describe("CSV text cells", () => {
  it.each([
    ["=HYPERLINK(\"http://evil.example\")", "'=HYPERLINK(\"http://evil.example\")"],
    ["+1+cmd", "'+1+cmd"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1", "'\t=1"],
    ["\r=1", "'\r=1"],
    // Where `;` separates cells, Excel reads `;=cmd` as an empty cell and then a formula.
    [";=cmd|' /C calc'!A0", "';=cmd|' /C calc'!A0"],
    [",=1+1", "',=1+1"],
    [";;@SUM(A1)", "';;@SUM(A1)"],
    [";-1", "';-1"],
  ])("neutralises %j", (cell, written) => {
    expect(csvTextCell(cell)).toBe(written);
  });

  it.each(["Acme Shop", "https://shop.example", "; plain text", "a=b", "", "1.2.3"])("leaves %j as it is", (cell) => {
    expect(csvTextCell(cell)).toBe(cell);
  });
});

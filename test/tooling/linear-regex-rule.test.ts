import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.ts";

// `pnpm lint` refuses regexes that can take super-linear time on request text (docs/security.md), with the project's own configuration.
const eslint = new ESLint({ cwd: ROOT });

async function findings(code: string, filePath = "packages/domains/src/ai/example.ts"): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe("the linear-time regex rules", () => {
  it("fail lint on the patterns the review found slow", async () => {
    // A run of spaces inside a line, rescanned from each space.
    expect(await findings('export const strip = (line: string) => line.replace(/\\s+$/, "");\n')).toEqual(["regexp/no-super-linear-move"]);
    // Two runs of spaces that share a gap.
    expect(await findings("export const ends = (line: string) => /wrote\\s*:?\\s*$/.test(line);\n")).toEqual(["regexp/no-super-linear-backtracking"]);
    // A tag search rescanned from every `<div` when no `>` follows.
    expect(await findings('export const cut = (html: string) => html.search(/<div[^>]+class="[^"]*gmail_quote/i);\n')).toEqual(["linear/no-rescanning-search"]);
    expect(await findings('export const drop = (html: string) => html.replace(/<(script|style)\\b[\\s\\S]*?<\\/\\1>/gi, "");\n')).toEqual(["linear/no-rescanning-search"]);
    // Nested quantifiers.
    expect(await findings("export const nested = (text: string) => /^(a+)+$/.test(text);\n")).toContain("regexp/no-super-linear-backtracking");
  });

  it("pass the linear forms, sticky regexes and code outside the packages", async () => {
    expect(await findings('export const breaks = (html: string) => html.replace(/<br\\s*\\/?>/gi, "\\n");\n')).toEqual([]);
    expect(await findings("export const quoted = (line: string) => /^\\s*>/.test(line);\n")).toEqual([]);
    expect(await findings("export const ends = (line: string) => /wrote\\s*(?::\\s*)?$/.test(line);\n")).toEqual([]);
    expect(await findings('export const key = (text: string) => text.replace(/\\b(key)=([^&\\s"\']+)/gi, "$1=***");\n')).toEqual([]);
    expect(await findings("const plain = /\\s*<([a-z]+)>([^<]*)<\\/\\1>/y;\nexport const element = (xml: string) => plain.exec(xml);\n")).toEqual([]);
    expect(await findings('export const strip = (line: string) => line.replace(/\\s+$/, "");\n', "scripts/example.ts")).toEqual([]);
  });
});

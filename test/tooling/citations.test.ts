import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.ts";

// Every citation of spec 1, spec 2 or the design in a tracked file names a heading of
// docs/requirements.md ("How citations map to headings" there describes the forms).

const REQUIREMENTS = "docs/requirements.md";
const SELF = "test/tooling/citations.test.ts";
/** Files that cannot hold a citation, or only as sample text. */
const SKIPPED = /\.(png|jpe?g|gif|ico|webp|pdf|woff2?|ttf|zip|gz)$|^pnpm-lock\.yaml$/;

type Doc = "Spec 1" | "Spec 2" | "Design";

export interface Citation {
  doc: Doc;
  /** "4.5", "8", "10.7"; "4.7.5" is rule 5 of 4.7. */
  section: string;
  /** Rule or step numbers ("4.5 rule 2", "4.6 step 7", "4.7 rules 1 to 7"). */
  rules: number[];
  /** A lettered item ("6e", "6(e)"). */
  item?: string;
  text: string;
  line: number;
}

const REF = String.raw`(\d+(?:\.\d+)*)(?:\(([a-z])\)|([a-z])(?![a-z]))?`;
// "spec 1, 4.5", "Spec 2 (4.2)", "spec 1 §4.5", "spec 2, section 8", "design 10.7", "design section 9".
const START = new RegExp(
  String.raw`\b(?:spec\s*([12])|(design))\b(?:\s*(?:,|\(|§)\s*|\s+)(?:sections?\s*|§\s*)?` + REF,
  "gi",
);
// "rule 2", "rules 1 to 7", "rules 1, 5, 6, 7", "rules 1-3", "step 7".
const RULES = /^\s+(?:rules?|steps?)\s+(\d+(?:\s*(?:,|and|to|-|or)\s*\d+(?![.\d]))*)/i;
// More sections of the same document: ", 4.7", " and 4.6", " / 10.8", " and section 3".
const MORE = new RegExp(String.raw`^\s*(?:,|and|/|or|&)\s*(?:sections?\s*|§\s*)?` + REF, "i");
// "spec 2.4": spec 1 and spec 2 both have a 2.4.
const AMBIGUOUS = /\bspec\s*[12]\.\d/gi;

/** Line breaks and the comment markers that continue a comment become blanks, offsets unchanged. */
function joinLines(text: string): string {
  return text.replace(/[ \t]*\r?\n[ \t]*(?:\/\/\/?|\*(?!\/)|#|--)?/g, (m) => " ".repeat(m.length));
}

function ruleNumbers(list: string): number[] {
  const out: number[] = [];
  for (const [, from, to] of list.matchAll(/(\d+)(?:\s*(?:to|-)\s*(\d+))?/g)) {
    for (let n = Number(from); n <= Number(to ?? from); n++) out.push(n);
  }
  return out;
}

export function findCitations(source: string): { citations: Citation[]; ambiguous: { text: string; line: number }[] } {
  const text = joinLines(source);
  const lineAt = (index: number) => source.slice(0, index).split("\n").length;
  const citations: Citation[] = [];
  for (const m of text.matchAll(START)) {
    const doc: Doc = m[2] ? "Design" : (`Spec ${m[1]}` as Doc);
    let end = m.index + m[0].length;
    const found = [{ section: m[3]!, item: m[4] ?? m[5], rules: [] as number[], start: m.index, end }];
    for (;;) {
      const rules = RULES.exec(text.slice(end));
      if (rules) {
        found.at(-1)!.rules = ruleNumbers(rules[1]!);
        end += rules[0].length;
        found.at(-1)!.end = end;
      }
      const more = MORE.exec(text.slice(end));
      if (!more) break;
      found.push({ section: more[1]!, item: more[2] ?? more[3], rules: [], start: end, end: end + more[0].length });
      end += more[0].length;
    }
    for (const f of found) {
      const cited = text.slice(m.index, f.end).replace(/\s+/g, " ").trim();
      citations.push({ doc, section: f.section, rules: f.rules, item: f.item, text: cited, line: lineAt(f.start) });
    }
  }
  const ambiguous = [...text.matchAll(AMBIGUOUS)].map((m) => ({ text: m[0], line: lineAt(m.index) }));
  return { citations, ambiguous };
}

/** A heading's name: "Spec 1, 4.5", "Design 10.7". */
const label = (doc: Doc, section: string) => (doc === "Design" ? `Design ${section}` : `${doc}, ${section}`);

interface Heading {
  body: string;
  rules: Set<number>;
}

/** `## Spec 1, 4.5: ...` and `## Design 10.7: ...` by their label; a document's title (`# Spec 1: ...`) by its name. */
export function requirementHeadings(markdown: string): Map<string, Heading> {
  const headings = new Map<string, Heading>();
  const parts = markdown.split(/^(?=#{1,3} )/m);
  for (const part of parts) {
    const m = /^#{1,3} (Spec [12]|Design)(?:,? (\d+(?:\.\d+)*))?: \S/.exec(part);
    if (!m) continue;
    const key = m[2] ? label(m[1] as Doc, m[2]) : m[1]!;
    if (headings.has(key)) throw new Error(`${REQUIREMENTS}: two headings for ${key}`);
    const rules = new Set([...part.matchAll(/^\s*(\d+)\. /gm)].map((r) => Number(r[1])));
    headings.set(key, { body: part, rules });
  }
  return headings;
}

/** What is wrong with a citation, or null when its heading (and rule or item) is there. */
export function unresolved(citation: Citation, headings: Map<string, Heading>): string | null {
  let section = citation.section;
  let rules = citation.rules;
  const parts = section.split(".");
  if (parts.length === 3) {
    section = parts.slice(0, 2).join(".");
    rules = [Number(parts[2]), ...rules];
  } else if (parts.length > 3) {
    return `no heading "${label(citation.doc, section)}"`;
  }
  const heading = headings.get(label(citation.doc, section));
  if (!heading) return `no heading "${label(citation.doc, section)}"`;
  const missing = rules.filter((r) => !heading.rules.has(r));
  if (missing.length) return `"${label(citation.doc, section)}" has no numbered rule ${missing.join(", ")}`;
  if (citation.item && !heading.body.includes(`(${citation.item})`)) {
    return `"${label(citation.doc, section)}" has no item (${citation.item})`;
  }
  return null;
}

function trackedFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  return [...new Set(out.split("\0"))]
    .filter((f) => f && f !== REQUIREMENTS && f !== SELF && !SKIPPED.test(f))
    .filter((f) => existsSync(join(ROOT, f)))
    .sort();
}

describe("citations of spec 1, spec 2 and the design", () => {
  it("reads the forms the code uses", () => {
    const cite = (text: string) =>
      findCitations(text).citations.map((c) =>
        [label(c.doc, c.section), c.item && `(${c.item})`, c.rules.length && `rules ${c.rules}`].filter(Boolean).join(" "),
      );
    expect(cite("(spec 1, 4.5) with the outbox of design section 3:")).toEqual(["Spec 1, 4.5", "Design 3"]);
    expect(cite("spec 1 §4.5 and Spec 2 (4.2)")).toEqual(["Spec 1, 4.5", "Spec 2, 4.2"]);
    expect(cite("(spec 2, 2.4, 3, 4.7, 6; design 10.1, 10.3, 10.8)")).toEqual([
      "Spec 2, 2.4",
      "Spec 2, 3",
      "Spec 2, 4.7",
      "Spec 2, 6",
      "Design 10.1",
      "Design 10.3",
      "Design 10.8",
    ]);
    expect(cite("(spec 2, 4.5 rule 5 and section 3)")).toEqual(["Spec 2, 4.5 rules 5", "Spec 2, 3"]);
    expect(cite("(spec 1, 4.7 rules 1, 5, 6, 7). Spec 2, 4.1 rules 1-3")).toEqual([
      "Spec 1, 4.7 rules 1,5,6,7",
      "Spec 2, 4.1 rules 1,2,3",
    ]);
    expect(cite("Spec 2, 4.4 and design 10.6 / 10.8: Spec 1, 6(e), spec 1, section 6e")).toEqual([
      "Spec 2, 4.4",
      "Design 10.6",
      "Design 10.8",
      "Spec 1, 6 (e)",
      "Spec 1, 6 (e)",
    ]);
    expect(cite(" * The cap (spec 2,\n * section 3) and Spec 2, 4.6, every 10 minutes")).toEqual([
      "Spec 2, 3",
      "Spec 2, 4.6",
    ]);
    expect(cite("Spec 2's REST routes, spec@1.1.0, (spec: 10 s)")).toEqual([]);
    expect(findCitations("its spec 2.4 id").ambiguous).toHaveLength(1);
  });

  it("resolves every citation in the repository to a heading of docs/requirements.md", () => {
    const headings = requirementHeadings(readFileSync(join(ROOT, REQUIREMENTS), "utf8"));
    const problems: string[] = [];
    let count = 0;
    const docs = new Set<string>();
    for (const file of trackedFiles()) {
      const { citations, ambiguous } = findCitations(readFileSync(join(ROOT, file), "utf8"));
      for (const c of citations) {
        count++;
        docs.add(c.doc);
        const problem = unresolved(c, headings);
        if (problem) problems.push(`${file}:${c.line}: "${c.text}": ${problem}`);
      }
      for (const a of ambiguous) {
        problems.push(`${file}:${a.line}: "${a.text}" could be either spec's section; write "spec N, x.y"`);
      }
    }
    for (const doc of docs) if (!headings.has(doc)) problems.push(`${REQUIREMENTS}: no title heading for ${doc}`);
    expect(problems).toEqual([]);
    // The scan found the citations at all (a broken pattern would pass vacuously).
    expect(count).toBeGreaterThan(400);
  });
});

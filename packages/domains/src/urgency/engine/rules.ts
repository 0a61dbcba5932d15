import { WORKAROUND_POINTS, type BaseUrgency } from "./levels.ts";
import { namesWorkaround } from "./text.ts";
import { MODEL_LEVELS, modelData, scoreFromChances, UrgencyModel, type UrgencyModelData, type UrgencyModelFile } from "./model.ts";
import { readFileSync } from "node:fs";

/** The reasoning names at most this many terms: the ones that pushed most towards the level. */
const NAMED_TERMS = 5;

/** "w:not reach" → "not reach" in quotes. */
const termName = (term: string) => `"${term.slice(2)}"`;

function title(subject: string, body: string): string {
  // 200 characters are kept: the rest of a long subject need not be cleaned.
  const cleaned = subject.slice(0, 1000).replace(/^\s*((re|fw|fwd|aw|wg|tr)\s*:\s*)+/i, "").replace(/\s+/g, " ").trim();
  if (cleaned.length >= 8) return cleaned.slice(0, 200);
  // The title keeps 120 characters of the first sentence: the rest of a long body need not be split.
  const first = body.replace(/\s+/g, " ").trim().slice(0, 1000).split(/(?<=[.!?])\s/)[0] ?? "";
  return (first || cleaned || "Support request").slice(0, 120);
}

const percent = (chance: number) => `${Math.round(100 * chance)} %`;

/**
 * A scorer over a model: the built-in urgency engine (design 10.2;
 * docs/urgency-engine.md). The model reads the whole text, a workaround
 * included, and gives the level it calls for; the base score is placed so
 * that the workaround modifier (-15) lands on that level rather than
 * counting the workaround twice.
 */
export function urgencyScorer(data: UrgencyModelData): (subject: string, body: string) => BaseUrgency {
  const model = new UrgencyModel(data);
  return (subject, body) => {
    const { vector, chances } = model.read(subject, body);
    const level = chances.indexOf(Math.max(...chances));
    const workaround = namesWorkaround(subject, body);
    const score = Math.min(100, scoreFromChances(chances) - (workaround ? WORKAROUND_POINTS : 0));
    const others = MODEL_LEVELS.map((name, i) => [name, chances[i]!] as const)
      .filter(([, chance], i) => i !== level && chance >= 0.05)
      .map(([name, chance]) => `${name} ${percent(chance)}`);
    const named = model.reasons(vector, level, NAMED_TERMS).map(termName);
    const summary = body.replace(/\s+/g, " ").trim().slice(0, 200) || subject.slice(0, 200);
    return {
      score,
      workaround_available: workaround,
      summary: summary || "No description given.",
      reasoning: `Built-in engine: ${MODEL_LEVELS[level]} ${percent(chances[level]!)}${others.length ? ` (${others.join(", ")})` : ""}${named.length ? `; weighed most: ${named.join(", ")}` : ""}.`,
      suggested_title: title(subject, body),
    };
  };
}

/** model.json, made by `pnpm train:urgency` from the labelled set's training part; the build copies it beside the compiled module. */
const MODEL_FILE = new URL("./model.json", import.meta.url);

let shipped: ReturnType<typeof urgencyScorer> | undefined;

/**
 * The built-in engine with the shipped model, read on first use: a process
 * that has an AI key, or scores no ticket, never parses its 1.4 MB (as a
 * module import, it cost each test file 1.1 s).
 */
export function scoreByRules(subject: string, body: string): BaseUrgency {
  shipped ??= urgencyScorer(modelData(JSON.parse(readFileSync(MODEL_FILE, "utf8")) as UrgencyModelFile));
  return shipped(subject, body);
}

import { termBlock, urgencyTerms, type TermBlock } from "./terms.ts";
import type { UrgencyLevel } from "./levels.ts";

/** The levels in the model's order, lowest first. */
export const MODEL_LEVELS: UrgencyLevel[] = ["LOW", "MEDIUM", "HIGH", "CRITICAL"];

/**
 * The built-in urgency model as shipped (model.json, made by `pnpm
 * train:urgency`): a multinomial logistic regression over the TF-IDF weights
 * of a ticket's terms (terms.ts), each block scaled to length 1.
 */
export interface UrgencyModelData {
  intercepts: number[];
  terms: string[];
  /** Per term: its inverse document frequency. */
  idf: number[];
  /** Per term: one weight per level, in MODEL_LEVELS order. */
  weights: number[][];
}

/** A ticket as the model sees it: term index → value, over the terms the model knows. */
export type TermVector = Map<number, number>;

/** Sub-linear term frequency times IDF, each block scaled to length 1, so a long ticket weighs no more than a short one. */
export function termVector(counts: Map<string, number>, index: Map<string, number>, idf: ArrayLike<number>): TermVector {
  const vector: TermVector = new Map();
  const norms: Record<TermBlock, number> = { w: 0, g: 0 };
  const blocks = new Map<number, TermBlock>();
  for (const [term, count] of counts) {
    const column = index.get(term);
    if (column === undefined) continue;
    const value = (1 + Math.log(count)) * idf[column]!;
    const block = termBlock(term);
    vector.set(column, value);
    blocks.set(column, block);
    norms[block] += value * value;
  }
  for (const [column, value] of vector) vector.set(column, value / Math.sqrt(norms[blocks.get(column)!]));
  return vector;
}

/** Each level's chance under weights `weightOf(column, level)`, in MODEL_LEVELS order. */
export function levelChances(vector: TermVector, intercepts: ArrayLike<number>, weightOf: (column: number, level: number) => number): number[] {
  const logits = Array.from(intercepts);
  for (const [column, value] of vector) for (let level = 0; level < logits.length; level += 1) logits[level]! += value * weightOf(column, level);
  const top = Math.max(...logits);
  const exps = logits.map((logit) => Math.exp(logit - top));
  const sum = exps.reduce((a, b) => a + b, 0);
  return exps.map((value) => value / sum);
}

/**
 * The score for the model's chances: the likeliest level's band (spec 2, 3),
 * placed in it by the pull of the level above. A ticket the model finds as
 * likely at the level above as at its own sits 15 into its band, so the VIP
 * modifier (+10) lifts exactly the tickets between two levels (the rubric's
 * rule 7); a CRITICAL ticket sits by its certainty.
 */
export function scoreFromChances(chances: number[]): number {
  const level = chances.indexOf(Math.max(...chances));
  if (level === chances.length - 1) return 75 + Math.round(25 * chances[level]!);
  const above = chances[level + 1]!;
  return 25 * level + Math.round((30 * above) / (chances[level]! + above));
}

/** model.json: the intercepts, then one row per term: the term, its IDF and its weights. */
export interface UrgencyModelFile {
  intercepts: number[];
  terms: Array<Array<string | number>>;
}

export function modelData(file: UrgencyModelFile): UrgencyModelData {
  return {
    intercepts: file.intercepts,
    terms: file.terms.map((row) => row[0] as string),
    idf: file.terms.map((row) => row[1] as number),
    weights: file.terms.map((row) => row.slice(2) as number[]),
  };
}

/** The model loaded: terms looked up by name. */
export class UrgencyModel {
  private readonly index: Map<string, number>;

  constructor(private readonly data: UrgencyModelData) {
    this.index = new Map(data.terms.map((term, column) => [term, column]));
  }

  /** The ticket's vector and each level's chance. */
  read(subject: string, body: string): { vector: TermVector; chances: number[] } {
    const vector = termVector(urgencyTerms(subject, body), this.index, this.data.idf);
    return { vector, chances: levelChances(vector, this.data.intercepts, (column, level) => this.data.weights[column]![level]!) };
  }

  /** The terms that pushed most towards `level` against the other levels, largest first (words only: letter runs name nothing a reader knows). */
  reasons(vector: TermVector, level: number, count: number): string[] {
    const pushes: Array<[string, number]> = [];
    for (const [column, value] of vector) {
      const term = this.data.terms[column]!;
      if (termBlock(term) === "g") continue;
      const weights = this.data.weights[column]!;
      const others = (weights.reduce((a, b) => a + b, 0) - weights[level]!) / (weights.length - 1);
      pushes.push([term, value * (weights[level]! - others)]);
    }
    return pushes
      .filter(([, push]) => push > 0)
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([term]) => term);
  }
}

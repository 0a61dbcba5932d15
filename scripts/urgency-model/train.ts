/**
 * Trains the built-in urgency model (docs/urgency-engine.md): a multinomial
 * logistic regression over TF-IDF term vectors (packages/domains/src/urgency/engine/terms.ts), with an L2
 * penalty, fitted by L-BFGS from zero for a fixed number of steps at most: the
 * same tickets give the same model.
 */
import { MODEL_LEVELS, termVector, urgencyTerms, type TermVector, type UrgencyLevel, type UrgencyModelData } from "@mw/domains/urgency/engine";

export interface TrainingTicket {
  subject: string;
  body: string;
  level: UrgencyLevel;
}

/** How the training runs; TRAINING is what the shipped model was made with. */
export interface TrainingSettings {
  /** Terms in fewer training tickets than this are not kept. */
  minTickets: number;
  /** Inverse strength of the L2 penalty (as scikit-learn's C): the loss is summed over tickets, the penalty is |w|² / 2C. */
  inversePenalty: number;
  /** L-BFGS steps at most. */
  steps: number;
}

export const TRAINING: TrainingSettings = { minTickets: 2, inversePenalty: 100, steps: 60 };

const LEVELS = MODEL_LEVELS.length;

/** The vocabulary, the IDF and the training vectors. */
function vectorise(tickets: TrainingTicket[], minTickets: number) {
  const counts = tickets.map((ticket) => urgencyTerms(ticket.subject, ticket.body));
  const documentFrequency = new Map<string, number>();
  for (const ticketCounts of counts) for (const term of ticketCounts.keys()) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const terms = [...documentFrequency].filter(([, frequency]) => frequency >= minTickets).map(([term]) => term).sort();
  const index = new Map(terms.map((term, column) => [term, column]));
  // Smoothed as if one more document held every term, so no IDF is zero or infinite.
  const idf = terms.map((term) => Math.log((1 + tickets.length) / (1 + documentFrequency.get(term)!)) + 1);
  return { terms, idf, vectors: counts.map((ticketCounts) => flat(termVector(ticketCounts, index, idf))) };
}

/** A training vector as flat arrays: the loss runs over them hundreds of times. */
interface FlatVector {
  columns: Int32Array;
  values: Float64Array;
}

const flat = (vector: TermVector): FlatVector => ({ columns: Int32Array.from(vector.keys()), values: Float64Array.from(vector.values()) });

/** The penalised loss and its gradient at `x` (the intercepts, then each term's weights, level by level). */
function lossAndGradient(x: Float64Array, vectors: FlatVector[], bands: number[], inversePenalty: number): { loss: number; gradient: Float64Array } {
  const gradient = new Float64Array(x.length);
  const logits = new Float64Array(LEVELS);
  let loss = 0;
  vectors.forEach(({ columns, values }, i) => {
    for (let level = 0; level < LEVELS; level += 1) logits[level] = x[level]!;
    for (let j = 0; j < columns.length; j += 1) {
      const base = LEVELS + columns[j]! * LEVELS;
      for (let level = 0; level < LEVELS; level += 1) logits[level]! += values[j]! * x[base + level]!;
    }
    // Softmax, shifted by the largest logit so no exponent overflows.
    let top = -Infinity;
    for (const logit of logits) top = Math.max(top, logit);
    let sum = 0;
    for (let level = 0; level < LEVELS; level += 1) sum += Math.exp(logits[level]! - top);
    loss -= logits[bands[i]!]! - top - Math.log(sum);
    for (let level = 0; level < LEVELS; level += 1) {
      const error = Math.exp(logits[level]! - top) / sum - (level === bands[i] ? 1 : 0);
      gradient[level]! += error;
      for (let j = 0; j < columns.length; j += 1) gradient[LEVELS + columns[j]! * LEVELS + level]! += error * values[j]!;
    }
  });
  for (let i = LEVELS; i < x.length; i += 1) {
    loss += (x[i]! * x[i]!) / (2 * inversePenalty);
    gradient[i]! += x[i]! / inversePenalty;
  }
  return { loss, gradient };
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i]! * b[i]!;
  return sum;
}

/** Limited-memory BFGS with a backtracking (Armijo) line search; stops early when the gradient is flat. */
function minimise(x: Float64Array, evaluate: (x: Float64Array) => { loss: number; gradient: Float64Array }, steps: number): Float64Array {
  const memory: Array<{ s: Float64Array; y: Float64Array; rho: number }> = [];
  let current = evaluate(x);
  for (let step = 0; step < steps && Math.sqrt(dot(current.gradient, current.gradient)) > 1e-6; step += 1) {
    // Two-loop recursion: the direction -H·g from the last ten steps.
    const direction = Float64Array.from(current.gradient, (value) => -value);
    const alphas: number[] = [];
    for (let k = memory.length - 1; k >= 0; k -= 1) {
      const { s, y, rho } = memory[k]!;
      const alpha = rho * dot(s, direction);
      alphas[k] = alpha;
      for (let i = 0; i < direction.length; i += 1) direction[i]! -= alpha * y[i]!;
    }
    const last = memory.at(-1);
    const scale = last ? dot(last.s, last.y) / dot(last.y, last.y) : 1 / Math.sqrt(dot(current.gradient, current.gradient));
    for (let i = 0; i < direction.length; i += 1) direction[i]! *= scale;
    for (let k = 0; k < memory.length; k += 1) {
      const { s, y, rho } = memory[k]!;
      const beta = rho * dot(y, direction);
      for (let i = 0; i < direction.length; i += 1) direction[i]! += s[i]! * (alphas[k]! - beta);
    }
    const slope = dot(current.gradient, direction);
    let length = 1;
    let next = x;
    let evaluated = current;
    for (let tries = 0; tries < 30; tries += 1, length /= 2) {
      next = Float64Array.from(x, (value, i) => value + length * direction[i]!);
      evaluated = evaluate(next);
      if (evaluated.loss <= current.loss + 1e-4 * length * slope) break;
    }
    const s = Float64Array.from(next, (value, i) => value - x[i]!);
    const y = Float64Array.from(evaluated.gradient, (value, i) => value - current.gradient[i]!);
    const sy = dot(s, y);
    if (sy > 1e-12) memory.push({ s, y, rho: 1 / sy });
    if (memory.length > 10) memory.shift();
    x = next;
    current = evaluated;
  }
  return x;
}

/** Values rounded to 4 decimals: the shipped file stays small and the same on every machine. */
const round = (value: number) => Math.round(value * 10_000) / 10_000;

export function trainUrgencyModel(tickets: TrainingTicket[], settings: TrainingSettings = TRAINING): UrgencyModelData {
  const { terms, idf, vectors } = vectorise(tickets, settings.minTickets);
  const bands = tickets.map((ticket) => MODEL_LEVELS.indexOf(ticket.level));
  const x = minimise(new Float64Array(LEVELS + terms.length * LEVELS), (point) => lossAndGradient(point, vectors, bands, settings.inversePenalty), settings.steps);
  return {
    intercepts: Array.from(x.subarray(0, LEVELS), round),
    terms,
    idf: idf.map(round),
    weights: terms.map((_, column) => Array.from(x.subarray(LEVELS + column * LEVELS, LEVELS + (column + 1) * LEVELS), round)),
  };
}

/** The text of packages/domains/src/urgency/engine/model.json for a model trained on `tickets` tickets. */
export function modelFile(model: UrgencyModelData, tickets: number): string {
  const header = { generated_by: "pnpm train:urgency (scripts/train-urgency.ts), from the training part of test/fixtures/urgency-labelled", training_tickets: tickets, settings: TRAINING, levels: MODEL_LEVELS };
  // One term a line: the file diffs by term when the set changes.
  const rows = model.terms.map((term, column) => `    ${JSON.stringify([term, model.idf[column], ...model.weights[column]!])}`);
  return `${JSON.stringify({ ...header, intercepts: model.intercepts }, null, 2).slice(0, -2)},\n  "terms": [\n${rows.join(",\n")}\n  ]\n}\n`;
}

export const MODEL_FILE = new URL("../../packages/domains/src/urgency/engine/model.json", import.meta.url);

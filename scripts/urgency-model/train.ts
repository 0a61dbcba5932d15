/**
 * Trains the built-in urgency engine's weights (docs/urgency-engine.md): an
 * ordinal logistic regression over the features of urgency-features.ts. The
 * score is the bias plus the weights of the features found; the spec's
 * modifiers (VIP +10, workaround -15) are added as fixed points, and the
 * level bands (25, 50, 75) are the thresholds. Full-batch gradient descent
 * from zero, a fixed number of steps: the same tickets give the same weights.
 */
import { hasWorkaround, urgencyFeatures, VIP_POINTS, WORKAROUND_POINTS, type UrgencyLevel, type UrgencyWeights } from "@mw/shared/ai";

export interface TrainingTicket {
  subject: string;
  body: string;
  is_vip: boolean;
  level: UrgencyLevel;
}


/** How the training runs; TRAINING is what the shipped weights were made with. */
export interface TrainingSettings {
  /** Points over which the chance of crossing a band edge goes from 27 % to 73 %. */
  slope: number;
  /** L2 penalty per weight, against the mean loss. */
  penalty: number;
  steps: number;
  rate: number;
}

export const TRAINING: TrainingSettings = { slope: 6, penalty: 0.00003, steps: 4000, rate: 30 };

const EDGES = [25, 50, 75];
const BAND: Record<UrgencyLevel, number> = { LOW: 0, MEDIUM: 1, HIGH: 2, CRITICAL: 3 };

interface Example {
  features: string[];
  offset: number;
  band: number;
}

function example(ticket: TrainingTicket): Example {
  const features = urgencyFeatures(ticket.subject, ticket.body);
  const offset = (ticket.is_vip ? VIP_POINTS : 0) + (hasWorkaround(features) ? WORKAROUND_POINTS : 0);
  return { features, offset, band: BAND[ticket.level] };
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const round = (value: number) => Math.round(value * 100) / 100;

/** Learns weights from `prior` (where the training starts, and what the penalty draws each weight back to). */
export function trainUrgencyWeights(tickets: TrainingTicket[], prior: UrgencyWeights, settings: TrainingSettings = TRAINING): UrgencyWeights {
  const examples = tickets.map(example);
  const names = [...new Set(examples.flatMap((item) => item.features))].sort();
  const index = new Map(names.map((name, i) => [name, i]));
  const rows = examples.map((item) => ({ ...item, columns: item.features.map((name) => index.get(name)!) }));
  const anchor = Float64Array.from(names, (name) => prior.weights[name] ?? 0);
  const weights = Float64Array.from(anchor);
  let bias = prior.bias;
  const gradient = new Float64Array(names.length);
  for (let step = 0; step < settings.steps; step += 1) {
    gradient.fill(0);
    let biasGradient = 0;
    for (const row of rows) {
      let score = bias + row.offset;
      for (const column of row.columns) score += weights[column]!;
      // All-threshold loss: each band edge is a logistic question, "above this edge?".
      let derivative = 0;
      EDGES.forEach((edge, k) => {
        const above = row.band > k ? 1 : -1;
        derivative -= (above * sigmoid((-above * (score - edge)) / settings.slope)) / settings.slope;
      });
      derivative /= rows.length;
      biasGradient += derivative;
      for (const column of row.columns) gradient[column]! += derivative;
    }
    bias -= settings.rate * biasGradient;
    for (let i = 0; i < weights.length; i += 1) weights[i]! -= settings.rate * (gradient[i]! + 2 * settings.penalty * (weights[i]! - anchor[i]!));
  }
  const kept: Record<string, number> = {};
  names.forEach((name, i) => {
    if (Math.abs(weights[i]!) >= 0.5) kept[name] = round(weights[i]!);
  });
  return { bias: round(bias), weights: kept };
}

/** The text of packages/shared/src/ai/urgency-weights.json for weights trained on `tickets` tickets. */
export function weightsFile(trained: UrgencyWeights, tickets: number): string {
  return `${JSON.stringify({ generated_by: "pnpm train:urgency (scripts/train-urgency.ts), from the training part of test/fixtures/urgency-labelled", training_tickets: tickets, settings: TRAINING, ...trained }, null, 2)}\n`;
}

export const WEIGHTS_FILE = new URL("../../packages/shared/src/ai/urgency-weights.json", import.meta.url);

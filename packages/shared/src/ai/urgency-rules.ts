import type { BaseUrgency } from "./urgency.ts";
import { hasWorkaround, urgencyFeatures } from "./urgency-features.ts";
import { weighFeatures, type UrgencyWeights } from "./urgency-score.ts";
import TRAINED from "./urgency-weights.json" with { type: "json" };

/**
 * The built-in urgency engine (design 10.2; docs/urgency-engine.md): the
 * rubric's concepts found in the text, weighed by weights learned from the
 * labelled tickets' training part (scripts/train-urgency.ts). The weights
 * scored better on the held-out part than the same concepts with hand-set
 * points, and than the phrase rules this replaced.
 */
const MODEL: UrgencyWeights = { bias: TRAINED.bias, weights: TRAINED.weights };

/** The reasoning names at most this many features: the ones that moved the score most. */
const NAMED_FEATURES = 6;

/** "t:data+lost" → "data + lost together", "s:outage" → "outage in the subject". */
function featureName(feature: string): string {
  const [kind, concept] = [feature.slice(0, 1), feature.slice(2).replace(/_/g, " ")];
  if (kind === "t") return `${concept.replace("+", " + ")} together`;
  if (kind === "s") return `${concept} in the subject`;
  return concept;
}

function title(subject: string, body: string): string {
  // 200 characters are kept: the rest of a long subject need not be cleaned.
  const cleaned = subject.slice(0, 1000).replace(/^\s*((re|fw|fwd|aw|wg|tr)\s*:\s*)+/i, "").replace(/\s+/g, " ").trim();
  if (cleaned.length >= 8) return cleaned.slice(0, 200);
  // The title keeps 120 characters of the first sentence: the rest of a long body need not be split.
  const first = body.replace(/\s+/g, " ").trim().slice(0, 1000).split(/(?<=[.!?])\s/)[0] ?? "";
  return (first || cleaned || "Support request").slice(0, 120);
}

/** Scores a ticket's text; the reasoning names the features that moved the score most, with their points. */
export function scoreByRules(subject: string, body: string): BaseUrgency {
  const features = urgencyFeatures(subject, body);
  const { score, counted } = weighFeatures(MODEL, features);
  const summary = body.replace(/\s+/g, " ").trim().slice(0, 200) || subject.slice(0, 200);
  const named = counted.slice(0, NAMED_FEATURES).map(([feature, points]) => `${featureName(feature)} ${points > 0 ? "+" : ""}${Math.round(points)}`);
  const reasoning = named.length ? `Built-in engine: base ${Math.round(MODEL.bias)}; ${named.join(", ")}.` : `Built-in engine: base ${Math.round(MODEL.bias)}; no urgency factors found.`;
  return {
    score: Math.max(0, Math.min(100, Math.round(score))),
    workaround_available: hasWorkaround(features),
    summary: summary || "No description given.",
    reasoning,
    suggested_title: title(subject, body),
  };
}

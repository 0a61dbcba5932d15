import type { BaseUrgency } from "./urgency.ts";

/**
 * The built-in urgency engine (design 10.2): the scoring factors of spec 2,
 * 4.1 rule 1 as weighted phrase rules. Each factor counts once; the base is
 * a routine request's 15 points.
 */
const BASE = 15;

interface Factor {
  name: string;
  points: number;
  patterns: RegExp[];
}

const FACTORS: Factor[] = [
  {
    name: "production down",
    points: 35,
    patterns: [
      /\b(site|website|shop|store|checkout|server|service|system|production|app|api|payments?)\b[^.!?\n]{0,40}\b(is |are )?(down|offline|broken|not loading|not working|unreachable|crash(ed|ing)?|outage)\b/i,
      /\b(outage|500 error|503|white screen|cannot (log ?in|access)|can't (log ?in|access)|nobody can|no one can|cannot pay|can't pay)\b/i,
    ],
  },
  {
    name: "revenue impact",
    points: 25,
    patterns: [
      /\b(orders?|payments?|checkout|sales|revenue|transactions?)\b[^.!?\n]{0,40}\b(fail|failing|failed|lost|losing|blocked|stopped|declined|dropping|falling|not (going through|working|processing))/i,
      /\b(losing (money|sales|orders)|charged (too (little|much)|twice|wrong)|wrong prices?|cannot pay|can.t pay)\b/i,
    ],
  },
  { name: "data loss risk", points: 35, patterns: [/\b(data|records|orders|files|database|customers?)\b[^.!?\n]{0,30}\b(lost|loss|deleted|missing|disappeared|corrupt(ed)?|wiped)\b/i, /\bdata loss\b/i] },
  { name: "security breach", points: 40, patterns: [/\b(hack(ed)?|breach|malware|phishing|compromised|unauthori[sz]ed (access|login)|ransomware|injected|defaced|leak(ed)?)\b/i] },
  { name: "multiple users", points: 15, patterns: [/\b(all|every|many|multiple|several) (of our )?(users|customers|staff|clients|employees|people)\b/i, /\b(everyone|nobody|no one)\b/i] },
  /** Not one of the spec's named factors ("typical" ones): a failed run leaves work undone until someone acts. */
  { name: "failed process", points: 10, patterns: [/\b(import|export|sync|backup|cron|job|update)\b[^.!?\n]{0,20}\b(failed|failing|broke|stopped)\b/i] },
  /** Likewise: the sender says it cannot wait. */
  { name: "marked urgent", points: 10, patterns: [/\b(urgent|asap|emergency|immediately|right away)\b/i] },
  {
    name: "enhancement request",
    points: -20,
    patterns: [/\b(feature request|enhancement|would (it )?be (nice|great|possible)|could you add|nice to have|suggestion|when you have time|no rush|not urgent|low priority)\b/i],
  },
];

const WORKAROUND = /\b(workaround|work around|in the meantime we|for now we (can|are)|manually (for now|in the meantime)|temporar(y|ily) (fix|solution))\b/i;

function title(subject: string, body: string): string {
  const cleaned = subject.replace(/^\s*((re|fw|fwd|aw|wg|tr)\s*:\s*)+/i, "").replace(/\s+/g, " ").trim();
  if (cleaned.length >= 8) return cleaned.slice(0, 200);
  const first = body.replace(/\s+/g, " ").trim().split(/(?<=[.!?])\s/)[0] ?? "";
  return (first || cleaned || "Support request").slice(0, 120);
}

/** Scores a ticket's text by the factors found; the reasoning names each, with its points. */
export function scoreByRules(subject: string, body: string): BaseUrgency {
  const text = `${subject}\n${body}`;
  const found = FACTORS.filter((factor) => factor.patterns.some((pattern) => pattern.test(text)));
  const score = Math.max(0, Math.min(100, BASE + found.reduce((sum, factor) => sum + factor.points, 0)));
  const workaround = WORKAROUND.test(text);
  const summary = body.replace(/\s+/g, " ").trim().slice(0, 200) || subject.slice(0, 200);
  const reasoning = found.length
    ? `Built-in rules: base ${BASE}; ${found.map((factor) => `${factor.name} ${factor.points > 0 ? "+" : ""}${factor.points}`).join(", ")}.`
    : `Built-in rules: base ${BASE}; no urgency factors found.`;
  return { score, workaround_available: workaround, summary: summary || "No description given.", reasoning, suggested_title: title(subject, body) };
}

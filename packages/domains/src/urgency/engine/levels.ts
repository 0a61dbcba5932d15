import { z } from "zod";

export const URGENCY_LEVELS = ["CRITICAL", "HIGH", "MEDIUM", "LOW"] as const;
export type UrgencyLevel = (typeof URGENCY_LEVELS)[number];

/** Spec 2, 3: 75-100 CRITICAL, 50-74 HIGH, 25-49 MEDIUM, 0-24 LOW. */
export function levelOf(score: number): UrgencyLevel {
  if (score >= 75) return "CRITICAL";
  if (score >= 50) return "HIGH";
  if (score >= 25) return "MEDIUM";
  return "LOW";
}

/** Spec 2, 4.1 rule 2: the expected response time of each level. */
export const RESPONSE_TIMES: Record<UrgencyLevel, string> = {
  CRITICAL: "Respond within 1 hour",
  HIGH: "Respond the same business day",
  MEDIUM: "Respond within 2 business days",
  LOW: "Schedule for the next maintenance window",
};

/** Spec 2, 4.1 rule 1: modifiers applied after scoring. */
export const VIP_POINTS = 10;
export const WORKAROUND_POINTS = -15;

/**
 * What the engine (model or rules) decides from the text alone: cached by
 * subject and body (design 10.8), before the VIP and workaround modifiers.
 */
export const baseUrgency = z.object({
  score: z.number().int().min(0).max(100),
  workaround_available: z.boolean(),
  summary: z.string().min(1).max(2000),
  reasoning: z.string().min(1).max(4000),
  suggested_title: z.string().min(1).max(200),
});
export type BaseUrgency = z.infer<typeof baseUrgency>;

/** The urgency result of spec 2, 2.1. */
export interface UrgencyResult {
  score: number;
  level: UrgencyLevel;
  summary: string;
  reasoning: string;
  timeline: string;
  suggested_title: string;
}

/** The modifiers on top of the base score, clamped to 0-100; the level and timeline follow the final score. */
export function finalUrgency(base: BaseUrgency, isVip: boolean): UrgencyResult {
  const modifiers = [isVip && `VIP client ${VIP_POINTS > 0 ? "+" : ""}${VIP_POINTS}`, base.workaround_available && `workaround available ${WORKAROUND_POINTS}`].filter(Boolean);
  const score = Math.max(0, Math.min(100, base.score + (isVip ? VIP_POINTS : 0) + (base.workaround_available ? WORKAROUND_POINTS : 0)));
  const level = levelOf(score);
  return {
    score,
    level,
    summary: base.summary,
    reasoning: modifiers.length ? `${base.reasoning} Modifiers: ${modifiers.join(", ")}.` : base.reasoning,
    timeline: RESPONSE_TIMES[level],
    suggested_title: base.suggested_title,
  };
}

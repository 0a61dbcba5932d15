import { z } from "zod";
import { cleanHtml, truncateCodePoints } from "@mw/platform/text";
import { parseEmailReply } from "./email-reply.ts";
import { htmlToText } from "./html-to-text.ts";
import { levelOf, RESPONSE_TIMES, scoreByRules, type UrgencyLevel, VIP_POINTS, WORKAROUND_POINTS } from "../urgency/engine/index.ts";

/** One thread entry as the analysis sends it (spec 2, 4.7 rule 2). */
export interface AnalysisEntry {
  poster_name: string;
  poster_type: "User" | "Staff";
  date: string;
  message: string;
  is_internal: boolean;
  entry_label: "Message" | "Response" | "Note";
}

/** What one analysis run sends (spec 2, 4.7 rule 2, plus the previous-urgency context of section 3). */
export interface TicketAnalysisInput {
  ticket_id: number;
  subject: string;
  body: AnalysisEntry[];
  bypass_cache: boolean;
  customer_type: string | null;
  reported_at: string;
  is_vip: boolean;
  previous_percentage: number | null;
  previous_level: UrgencyLevel | null;
  last_poster_type: "User" | "Staff" | null;
  last_poster_name: string | null;
}

/** The model's answer (spec 2, 4.7 rule 4), before the modifiers and the cap. */
export const analysisAnswer = z.object({
  urgency_percentage: z.number().int().min(0).max(100),
  workaround_available: z.boolean(),
  estimated_hours: z.number().min(0).max(999),
  summary: z.string().min(1).max(5000),
  timeline: z.string().min(1).max(10_000),
  suggested_title: z.string().min(1).max(200),
});
export type AnalysisAnswer = z.infer<typeof analysisAnswer>;

export const ANALYSIS_JSON_SCHEMA = {
  type: "object",
  properties: {
    urgency_percentage: { type: "integer", minimum: 0, maximum: 100 },
    workaround_available: { type: "boolean" },
    estimated_hours: { type: "number", minimum: 0 },
    summary: { type: "string", description: "HTML: p, ul, li, strong, em only" },
    timeline: { type: "string", description: "HTML list of the ticket's key events and the expected response time" },
    suggested_title: { type: "string" },
  },
  required: ["urgency_percentage", "workaround_available", "estimated_hours", "summary", "timeline", "suggested_title"],
};

/** The final result written to the ticket's six fields and a snapshot. */
export interface TicketAnalysis {
  urgency: UrgencyLevel;
  urgency_percentage: number;
  estimated_hours: number;
  summary: string;
  timeline: string;
  suggested_title: string;
  model_used: string;
  /** The cap rule of spec 2, 3 kept the previous percentage. */
  capped: boolean;
  cached: boolean;
}

/**
 * Spec 2, 4.7 rule 3: the urgency fallback chain follows the configured
 * model. Any other model is followed by the 2.5 flash chain.
 */
export function urgencyChain(model: string): string[] {
  const chains: Record<string, string[]> = {
    "gemini-2.5-flash": ["gemini-2.5-flash-lite"],
    "gemini-2.5-pro": ["gemini-2.5-flash", "gemini-3-flash-preview"],
    "gemini-3-pro-preview": ["gemini-3-flash-preview", "gemini-2.5-pro", "gemini-2.5-flash"],
  };
  return chains[model] ?? ["gemini-2.5-flash", "gemini-2.5-flash-lite"].filter((fallback) => fallback !== model);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * How much of a thread entry the analysis reads (docs/security.md): an entry
 * may hold megabytes, the newest reply comes first, and the model is sent
 * every entry of the thread.
 */
const ANALYSIS_ENTRY_CHARS = 65_536;

/** An entry's text: HTML read as text; client messages also lose their quoted history (design 10.8), staff entries never. */
export function entryMessage(entry: { type: string; body: string; format: string }): string {
  const body = truncateCodePoints(entry.body, ANALYSIS_ENTRY_CHARS);
  if (entry.type === "M") return parseEmailReply(body);
  return (entry.format === "html" ? htmlToText(body) : body).replace(/\r\n?/g, "\n").trim();
}

export function analysisPrompt(input: TicketAnalysisInput, criteria: string): { system: string; prompt: string } {
  const system = [
    "You analyse a support ticket's urgency for a web agency's support desk.",
    "Urgency criteria:",
    criteria,
    `Levels: 75-100 CRITICAL (${RESPONSE_TIMES.CRITICAL}), 50-74 HIGH (${RESPONSE_TIMES.HIGH}), 25-49 MEDIUM (${RESPONSE_TIMES.MEDIUM}), 0-24 LOW (${RESPONSE_TIMES.LOW}).`,
    "Do not apply the VIP or workaround modifiers yourself: report workaround_available.",
    "Answer JSON only: urgency_percentage, workaround_available, estimated_hours (work left, in hours), summary (short HTML), timeline (HTML list of key events and the expected response), suggested_title (under 80 characters).",
  ].join("\n");
  const context = {
    ticket_id: input.ticket_id,
    subject: input.subject,
    customer_type: input.customer_type,
    reported_at: input.reported_at,
    previous_percentage: input.previous_percentage,
    previous_level: input.previous_level,
    last_poster_type: input.last_poster_type,
    last_poster_name: input.last_poster_name,
    body: input.body,
  };
  return { system, prompt: JSON.stringify(context) };
}

/** Rough effort by level when no model estimates it: the rules engine cannot read scope. */
const RULE_HOURS: Record<UrgencyLevel, number> = { CRITICAL: 4, HIGH: 3, MEDIUM: 2, LOW: 1 };

/** The built-in engine's answer (design 10.2), scored on the client's messages. */
export function analyseByRules(input: TicketAnalysisInput): AnalysisAnswer {
  const clientText = input.body.filter((entry) => entry.poster_type === "User").map((entry) => entry.message).join("\n");
  const base = scoreByRules(input.subject, clientText || input.body.map((entry) => entry.message).join("\n"));
  const level = levelOf(base.score);
  const events = input.body.slice(-10).map((entry) => `<li>${escapeHtml(entry.date.slice(0, 16).replace("T", " "))} ${escapeHtml(entry.entry_label)} by ${escapeHtml(entry.poster_name)}</li>`);
  return {
    urgency_percentage: base.score,
    workaround_available: base.workaround_available,
    estimated_hours: RULE_HOURS[level],
    summary: `<p>${escapeHtml(base.summary)}</p><p>${escapeHtml(base.reasoning)}</p>`,
    timeline: `<ul>${events.join("")}</ul><p>${escapeHtml(RESPONSE_TIMES[level])}</p>`,
    suggested_title: base.suggested_title,
  };
}

/**
 * Design 10.8: VIP and workaround apply after the (cached) answer, then the
 * cap of spec 2, 3: when the last entry is by Staff and the new percentage
 * exceeds the stored one, the stored one stays. The level follows the final
 * percentage.
 */
export function finalAnalysis(answer: AnalysisAnswer, input: TicketAnalysisInput, model: string, cached: boolean): TicketAnalysis {
  const modified = Math.max(0, Math.min(100, answer.urgency_percentage + (input.is_vip ? VIP_POINTS : 0) + (answer.workaround_available ? WORKAROUND_POINTS : 0)));
  const capped = input.last_poster_type === "Staff" && input.previous_percentage !== null && modified > input.previous_percentage;
  const percentage = capped ? input.previous_percentage! : modified;
  return {
    urgency: levelOf(percentage),
    urgency_percentage: percentage,
    estimated_hours: Math.round(answer.estimated_hours * 100) / 100,
    summary: cleanHtml(answer.summary),
    timeline: cleanHtml(answer.timeline),
    suggested_title: answer.suggested_title.replace(/\s+/g, " ").trim().slice(0, 255),
    model_used: model,
    capped,
    cached,
  };
}

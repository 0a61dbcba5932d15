import { z } from "zod";
import type { AiService } from "../ai/index.ts";
import { terms } from "../ai/index.ts";
import { htmlToText } from "../ai/index.ts";
import type { PrismaClient } from "@mw/platform/database";
import { organisationByName, organisationTickets } from "../tickets/index.ts";
import { readOrganisationQuestion } from "./organisation-question.ts";

/** Spec 2, 4.6 and 8: an organisation analysis reads at most 500 tickets and answers at most 20 themes. */
const ANALYSIS_MAX_TICKETS = 500;
const ANALYSIS_MAX_THEMES = 20;

interface OrganisationQuestion {
  organisation: { id: number; name: string };
  since: Date | null;
  window: string;
}

/**
 * "Top issues for ACME in the last 6 months": the organisation (found in the
 * mirror by name) and the time window; null when the question is not one
 * (or names no organisation we know), so it goes to the index instead.
 */
export async function organisationQuestion(prisma: PrismaClient, message: string, now = new Date()): Promise<OrganisationQuestion | null> {
  const question = readOrganisationQuestion(message, now);
  if (!question) return null;
  const organisation = await organisationByName(prisma, question.name);
  return organisation ? { organisation, since: question.since, window: question.window } : null;
}

interface Theme {
  theme: string;
  frequency: number;
  description: string;
  example_tickets: string[];
}

interface OrganisationAnalysis {
  question: OrganisationQuestion;
  read: number;
  total: number;
  themes: Theme[];
}

const themesAnswer = z.object({
  themes: z.array(z.object({ theme: z.string().min(1), frequency: z.number().int().min(0), description: z.string(), example_tickets: z.array(z.string()) })),
});

const THEMES_SCHEMA = {
  type: "object",
  properties: {
    themes: {
      type: "array",
      maxItems: ANALYSIS_MAX_THEMES,
      items: {
        type: "object",
        properties: { theme: { type: "string" }, frequency: { type: "integer" }, description: { type: "string" }, example_tickets: { type: "array", items: { type: "string" } } },
        required: ["theme", "frequency", "description", "example_tickets"],
      },
    },
  },
  required: ["themes"],
};

/** Up to 20 themes by keyword frequency, when no provider key is set. */
function themesByRules(tickets: { number: string; text: string }[]): Theme[] {
  const byTerm = new Map<string, string[]>();
  for (const ticket of tickets) for (const term of new Set(terms(ticket.text))) byTerm.set(term, [...(byTerm.get(term) ?? []), ticket.number]);
  return [...byTerm.entries()]
    .filter(([term, numbers]) => numbers.length > 1 && !/^\d+$/.test(term))
    .sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]))
    .slice(0, ANALYSIS_MAX_THEMES)
    .map(([term, numbers]) => ({ theme: term, frequency: numbers.length, description: `Tickets whose subject or summary mention "${term}".`, example_tickets: numbers.slice(0, 3) }));
}

/**
 * Spec 2, 4.6: the organisation's newest 500 ticket summaries in the window,
 * bypassing the index, grouped into at most 20 themes with frequency,
 * description and example ticket numbers (by the assistant model, or by
 * keyword counts without a provider key).
 */
export async function analyseOrganisation(deps: { prisma: PrismaClient; ai: AiService }, question: OrganisationQuestion): Promise<OrganisationAnalysis> {
  const { total, tickets: rows } = await organisationTickets(deps.prisma, question.organisation.id, question.since, ANALYSIS_MAX_TICKETS);
  const tickets = rows.map((row) => ({ number: row.number, text: `${row.subject}${row.ticket_summary ? ` — ${htmlToText(row.ticket_summary).slice(0, 200)}` : ""}` }));
  let themes: Theme[];
  if (!(await deps.ai.hasProvider())) themes = themesByRules(tickets);
  else {
    const answer = await deps.ai.askAssistant(
      {
        system: `You analyse support tickets of one organisation. Group them into at most ${ANALYSIS_MAX_THEMES} themes, most frequent first: a short theme name, how many of the tickets belong to it (frequency), a one-sentence description, and up to 3 example ticket numbers taken from the list. Answer JSON.`,
        prompt: `Organisation: ${question.organisation.name} (${question.window}); ${tickets.length} tickets, one per line as number | subject — summary:\n${tickets.map((ticket) => `${ticket.number} | ${ticket.text}`).join("\n")}`,
        jsonSchema: THEMES_SCHEMA,
      },
      themesAnswer,
    );
    const known = new Set(tickets.map((ticket) => ticket.number));
    themes = answer.value.themes
      .sort((a, b) => b.frequency - a.frequency)
      .slice(0, ANALYSIS_MAX_THEMES)
      .map((theme) => ({ ...theme, example_tickets: theme.example_tickets.map((number) => number.replace(/^#/, "")).filter((number) => known.has(number)).slice(0, 3) }));
  }
  return { question, read: tickets.length, total, themes };
}

export function formatAnalysis(analysis: OrganisationAnalysis): string {
  const { question, read, total, themes } = analysis;
  const head = `Top issues for ${question.organisation.name} (${question.window}): ${read} of ${total} ticket${total === 1 ? "" : "s"} read.`;
  if (!themes.length) return `${head}\n\nNo recurring themes found.`;
  const lines = themes.map((theme, i) => `${i + 1}. ${theme.theme} — ${theme.frequency} ticket${theme.frequency === 1 ? "" : "s"}. ${theme.description}${theme.example_tickets.length ? ` Examples: ${theme.example_tickets.map((number) => `#${number}`).join(", ")}` : ""}`);
  return `${head}\n\n${lines.join("\n")}`;
}

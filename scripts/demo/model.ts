// The answers of the demo's AI provider (the Gemini fake): an urgency
// analysis reads the story's level off the newest scored message in the
// thread it was sent, so each snapshot follows the conversation; the
// assistant answers from the records the platform put in its prompt.
import type { GeminiCall } from "../../test/fakes/gemini.ts";
import { CHECKOUT, numberOf, READINGS, type Reading } from "./story.ts";

const promptOf = (call: GeminiCall) => call.body.contents?.map((content) => content.parts?.map((part) => part.text ?? "").join("")).join("\n") ?? "";
const schemaFields = (call: GeminiCall) => Object.keys((call.body.generationConfig?.responseJsonSchema as { properties?: object } | undefined)?.properties ?? {});

/** A story message is matched on its opening words, whatever the platform's cleanup did to its end. */
const opening = (text: string) => text.slice(0, 40);

function latestReading(prompt: string): Reading {
  let best: { at: number; reading: Reading } | undefined;
  for (const { text, reading } of READINGS) {
    const at = prompt.lastIndexOf(opening(text));
    if (at >= 0 && (!best || at > best.at)) best = { at, reading };
  }
  return best?.reading ?? { percentage: 30, hours: 1, summary: "<p>A routine request.</p>", title: "Routine request" };
}

function analysis(prompt: string): string {
  const reading = latestReading(prompt);
  return JSON.stringify({
    urgency_percentage: reading.percentage,
    workaround_available: false,
    estimated_hours: reading.hours,
    summary: reading.summary,
    timeline: "<ul><li>Reported by the client</li><li>Answered by Sam Staff</li></ul>",
    suggested_title: reading.title,
  });
}

/** The assistant's answer: the checkout story when its records were given, else the titles of the records it got. */
function chat(prompt: string): string {
  const [, note, rollback] = CHECKOUT.entries.filter((entry) => entry.type !== "M");
  if (prompt.includes(opening(note!.text)) && prompt.includes(opening(rollback!.text))) {
    return (
      `#${numberOf(CHECKOUT.id)} broke with the payment plugin update: version 4.2 changed the gateway callback URL (Sam's internal note), ` +
      "so checkouts failed with error 500 until the plugin was rolled back to 4.1. Tell the client that orders go through again " +
      "and that the update returns once its callback URL is fixed."
    );
  }
  const titles = [...prompt.matchAll(/^\[\d+\] (.+)$/gm)].map((match) => match[1]);
  return titles.length ? `The closest records: ${titles.join("; ")}.` : "I found no records about this.";
}

/** What the demo's model answers each kind of request with. */
export function demoAnswer(call: GeminiCall, otherwise: (call: GeminiCall) => string): string {
  const fields = schemaFields(call);
  const prompt = promptOf(call);
  if (fields.includes("urgency_percentage")) return analysis(prompt);
  if (fields.includes("note")) return JSON.stringify({ note: "Product page wireframes drafted" });
  if (fields.includes("title")) return JSON.stringify({ title: "Checkout outage and rollback" });
  if (fields.includes("themes")) return JSON.stringify({ themes: [] });
  if (fields.length === 0 && prompt.startsWith("Context records:")) return chat(prompt);
  return otherwise(call);
}

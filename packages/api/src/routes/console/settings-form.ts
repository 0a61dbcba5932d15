import { isOptionName, OPTIONS, SUGGESTED_MODELS, type OptionName } from "@mw/domains/options";
import type { z } from "zod";

/**
 * The settings form is read off the option definitions (spec 2, 2.2 and 2.3),
 * so an option added there shows up here with its own rules and message.
 */

type Kind = "secret" | "checkbox" | "number" | "checkboxes" | "textarea" | "model" | "text";

export interface SettingsField {
  name: OptionName;
  kind: Kind;
  description: string;
  /** What the input shows: the stored value, or what was submitted when the form comes back with errors. */
  value: unknown;
  choices: readonly string[];
  alwaysOn: readonly string[];
  /** For secrets: whether one is stored (the value itself is never sent to the browser). */
  isSet: boolean;
  error: string | null;
  hasDefault: boolean;
}

/** The ticket system's settings (the osTicket plugin's page), by name; the rest group by prefix. */
const TICKET_SYSTEM = new Set([
  "ai_security_key",
  "ai_assistant_model",
  "ai_embedding_model",
  "ai_vector_api_key",
  "ai_vector_host",
  "ai_enabled_sources",
  "ai_max_context_tickets",
  "ai_chatbot_name",
  "urgency_criteria",
  "urgency_max_per_run",
  "urgency_gate_seconds",
]);

export const GROUPS = ["AI", "Ticket system", "Time tracking"] as const;

function groupOf(name: string): (typeof GROUPS)[number] {
  if (TICKET_SYSTEM.has(name)) return "Ticket system";
  return name.startsWith("time_api.") ? "Time tracking" : "AI";
}

function kindOf(name: OptionName): Kind {
  const definition = OPTIONS[name];
  if ("secret" in definition) return "secret";
  const schema = definition.schema as z.ZodType;
  const type = schema.def.type;
  if (type === "boolean") return "checkbox";
  if (type === "number") return "number";
  if (type === "array") return "checkboxes";
  if (name === "urgency_criteria") return "textarea";
  // The chat and analysis models get the suggestions; the embedding model is another family.
  return /_model$/.test(name) && name !== "ai_embedding_model" ? "model" : "text";
}

/** Choices that are always on whatever the option holds (design 10.8: the ticket source), so not offered as checkboxes. */
const ALWAYS_ON: Partial<Record<string, readonly string[]>> = { ai_enabled_sources: ["ticket"] };

function allChoicesOf(name: OptionName): readonly string[] {
  const schema = OPTIONS[name].schema as z.ZodType;
  return schema.def.type === "array" ? ((schema as z.ZodArray<z.ZodEnum>).element.options as string[]) : [];
}

function choicesOf(name: OptionName): readonly string[] {
  if (kindOf(name) === "model") return SUGGESTED_MODELS;
  return allChoicesOf(name).filter((choice) => !ALWAYS_ON[name]?.includes(choice));
}

export function fieldsByGroup(current: Record<string, unknown>, submitted: Record<string, unknown> = {}, errors: Record<string, string> = {}) {
  const groups = GROUPS.map((group) => ({ group, fields: [] as SettingsField[] }));
  for (const name of Object.keys(OPTIONS) as OptionName[]) {
    const kind = kindOf(name);
    const field: SettingsField = {
      name,
      kind,
      description: OPTIONS[name].description,
      value: kind === "secret" ? "" : Object.hasOwn(submitted, name) ? submitted[name] : current[name],
      choices: choicesOf(name),
      alwaysOn: ALWAYS_ON[name] ?? [],
      isSet: kind === "secret" && current[`${name}_set`] === true,
      error: errors[name] ?? null,
      hasDefault: OPTIONS[name].default !== null,
    };
    groups.find((entry) => entry.group === groupOf(name))!.fields.push(field);
  }
  return groups;
}

function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === "string");
  return typeof value === "string" ? [value] : [];
}

/** A form field's value as the option holds it; `undefined` leaves the option as it is. */
function parseField(name: OptionName, form: Record<string, unknown>): unknown {
  const raw = form[name];
  // Browsers send a textarea's line breaks as CRLF; the options hold LF.
  const text = typeof raw === "string" ? raw.replace(/\r\n?/g, "\n").trim() : "";
  switch (kindOf(name)) {
    case "secret":
      if (form[`clear:${name}`] === "1") return null;
      return text ? text : undefined;
    case "checkbox":
      return raw === "on";
    case "checkboxes": {
      const picked = [...list(raw), ...(ALWAYS_ON[name] ?? [])];
      return allChoicesOf(name).filter((choice) => picked.includes(choice));
    }
    case "number":
      if (!text) return null;
      return Number.isFinite(Number(text)) ? Number(text) : text;
    default:
      // An emptied field whose option has no default (null) is unset rather than set to "".
      return !text && OPTIONS[name].default === null ? null : text;
  }
}

/**
 * The changes a posted form asks for (only options whose value differs), and
 * a message per field that the option's rules refuse. `reset` names an
 * option to return to its default.
 */
export function readSettingsForm(form: Record<string, unknown>, current: Record<string, unknown>): { changes: Record<string, unknown>; submitted: Record<string, unknown>; errors: Record<string, string> } {
  const changes: Record<string, unknown> = {};
  const submitted: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  const reset = typeof form.reset === "string" && isOptionName(form.reset) ? form.reset : null;
  for (const name of Object.keys(OPTIONS) as OptionName[]) {
    const value = name === reset ? null : parseField(name, form);
    if (value === undefined) continue;
    submitted[name] = value;
    const secret = kindOf(name) === "secret";
    const unchanged = secret ? value === null && current[`${name}_set`] !== true : JSON.stringify(value) === JSON.stringify(current[name] ?? null);
    if (unchanged) continue;
    if (value === null) {
      changes[name] = null;
      continue;
    }
    const parsed = (OPTIONS[name].schema as z.ZodType).safeParse(value);
    if (parsed.success) changes[name] = parsed.data;
    else errors[name] = typeof value === "string" && kindOf(name) === "number" ? "must be a number" : parsed.error.issues[0]!.message;
  }
  if (reset) delete submitted[reset];
  return { changes, submitted, errors };
}

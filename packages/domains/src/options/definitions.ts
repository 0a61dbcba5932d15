import { z } from "zod";

/** Spec 2, 2.2 names six models; design 10.8 accepts any Gemini model id (the six are the pickers' suggestions). */
export const SUGGESTED_MODELS = ["gemini-2.5-flash", "gemini-2.5-pro", "gemini-2.0-flash", "gemini-2.0-flash-lite", "gemini-1.5-flash", "gemini-1.5-pro"] as const;

/** Spec 2, 2.4: the knowledge index's sources. */
const KNOWLEDGE_SOURCES = ["ticket", "site", "wiki", "docs", "brand"] as const;

const model = z.string().regex(/^gemini-[a-z0-9][a-z0-9.-]{0,62}$/, `must be a Gemini model id, e.g. ${SUGGESTED_MODELS.join(", ")}`);
const secret = z.string().min(1).max(1024);
/** A key callers send as it is: long enough that guessing it is hopeless (issue 35 found one-character keys accepted). */
const sharedKey = z.string().min(32, "must be at least 32 characters").max(1024);
const seconds = z.number().int().min(1).max(86_400);

interface Definition<S extends z.ZodType, D> {
  schema: S;
  default: D;
  /** Stored encrypted, never returned or logged: reads show only whether it is set. */
  secret?: true;
  description: string;
}

function option<S extends z.ZodType, D extends z.output<S> | null>(definition: Definition<S, D>): Definition<S, D> {
  return definition;
}

/** The ticket system's default urgency criteria (spec 2, 4.7): the factors and modifiers of 4.1 rule 1, in words. */
export const DEFAULT_URGENCY_CRITERIA = [
  "Start near 20 for a routine request and adjust:",
  "- production down (site, shop, checkout or server not working): +30 to +40",
  "- revenue impact (orders or payments failing, wrong prices): +20 to +30",
  "- data loss risk (records deleted, missing or corrupted): +25 to +35",
  "- security breach (hacked, malware, leaked data, unauthorised access): +30 to +40",
  "- multiple users affected: +10 to +20",
  "- enhancement or feature request: -20",
  "A workaround that lets the client carry on lowers the urgency; report it as workaround_available.",
].join("\n");

/** Every option with its rules and default (spec 2, 2.2; design 10.2 and 10.8). */
export const OPTIONS = {
  ai_api_key: option({ schema: secret, default: null, secret: true, description: "provider API key (AI_API_KEY overrides it)" }),
  ai_security_key: option({ schema: sharedKey, default: null, secret: true, description: "shared secret (32 characters or more) external callers send as ai-security-key; unset refuses every key" }),
  ai_model: option({ schema: model, default: "gemini-2.5-flash", description: "default generation model (rewrite, e-mail parsing)" }),
  ai_urgency_model: option({ schema: model, default: "gemini-2.5-flash", description: "model for urgency scoring" }),
  ai_assistant_model: option({ schema: model, default: "gemini-2.5-flash", description: "the ticket system's generative model (chat, titles, note optimisation)" }),
  ai_embedding_model: option({ schema: model, default: "gemini-embedding-001", description: "embedding model of the knowledge index" }),
  ai_rate_limit: option({ schema: z.number().int().min(1).max(100_000), default: 60, description: "AI requests per client address per window" }),
  ai_rate_window: option({ schema: seconds, default: 60, description: "rate-limit window in seconds" }),
  ai_cache_ttl: option({ schema: z.number().int().min(0).max(30 * 86_400), default: 3600, description: "urgency cache duration in seconds (0: no cache)" }),
  ai_max_retries: option({ schema: z.number().int().min(1).max(10), default: 3, description: "provider attempts per model" }),
  ai_enabled_sources: option({
    schema: z.array(z.enum(KNOWLEDGE_SOURCES)).max(5),
    default: [...KNOWLEDGE_SOURCES],
    description: "knowledge sources the assistant searches (design 10.8: ticket is always on, whatever this holds)",
  }),
  ai_max_context_tickets: option({ schema: z.number().int().min(1).max(50), default: 8, description: "records the assistant puts in the model's context per question" }),
  ai_chatbot_name: option({ schema: z.string().trim().min(1).max(60), default: "Support Assistant", description: "the assistant's display name, which it answers under" }),
  ai_vector_api_key: option({ schema: secret, default: null, secret: true, description: "Pinecone API key for ai_vector_host (PINECONE_API_KEY is sent only to PINECONE_HOST)" }),
  ai_vector_host: option({ schema: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]), default: "", description: "Pinecone index host (PINECONE_HOST overrides it); empty: the embedded index" }),
  urgency_criteria: option({ schema: z.string().trim().min(20).max(10_000), default: DEFAULT_URGENCY_CRITERIA, description: "urgency criteria sent with every analysis (null: reset to default)" }),
  urgency_max_per_run: option({ schema: z.number().int().min(1).max(10_000), default: 2, description: "urgency analyses per minute across all workers (spec 2: tickets per cron run)" }),
  urgency_gate_seconds: option({ schema: z.number().int().min(0).max(86_400), default: 600, description: "a ticket is analysed at most once per this many seconds; later entries give one trailing analysis" }),
  "time_api.enabled": option({ schema: z.boolean(), default: false, description: "time tracking's master switch (spec 2, 2.3)" }),
  "time_api.client_id": option({ schema: z.string().trim().max(200), default: "", description: "Harvest OAuth app client id" }),
  "time_api.client_secret": option({ schema: secret, default: null, secret: true, description: "Harvest OAuth app client secret" }),
  "time_api.redirect_uri": option({ schema: z.union([z.literal(""), z.url({ protocol: /^https?$/ })]), default: "", description: "the OAuth callback URL registered with the app: <public URL>/scp/ajax.php/timetracking/callback" }),
  "time_api.account_id": option({ schema: z.number().int().positive(), default: null, description: "the Harvest account staff connect to (default: the token's first Harvest account)" }),
  "time_api.default_task_id": option({ schema: z.number().int().positive(), default: null, description: "the task new time entries use when none is chosen" }),
  "time_api.note_ai_enabled": option({ schema: z.boolean(), default: true, description: "AI note optimisation" }),
  "time_api.sync_account_id": option({ schema: z.number().int().positive(), default: null, description: "Harvest account of the sync credentials (import, projects, task lists)" }),
  "time_api.sync_token": option({ schema: secret, default: null, secret: true, description: "personal access token of the sync credentials" }),
  "time_api.sync_user_agent": option({ schema: z.string().trim().regex(/^\S.{0,100} \(.{3,100}\)$/, 'must read "App name (contact e-mail or URL)"'), default: null, description: "User-Agent of Harvest calls, \"App (contact)\"" }),
  "time_api.budget_multiplier_small": option({ schema: z.number().min(1).max(5), default: 1.25, description: "over-budget lock at budget x this, for budgets up to 10 h (design 10.4)" }),
  "time_api.budget_multiplier_medium": option({ schema: z.number().min(1).max(5), default: 1.15, description: "over-budget lock multiplier for budgets over 10 h and up to 40 h" }),
  "time_api.budget_multiplier_large": option({ schema: z.number().min(1).max(5), default: 1.1, description: "over-budget lock multiplier for budgets over 40 h" }),
} as const;

export type OptionName = keyof typeof OPTIONS;
/** The option's type; null only for options whose default is null (unset secrets). */
export type OptionValue<N extends OptionName> = z.output<(typeof OPTIONS)[N]["schema"]> | Extract<(typeof OPTIONS)[N]["default"], null>;

export function isOptionName(name: string): name is OptionName {
  return Object.hasOwn(OPTIONS, name);
}

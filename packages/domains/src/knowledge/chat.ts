import { AppError, errors } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import type { RedisClient } from "@mw/platform/redis";
import type { PrismaClient } from "@mw/platform/database";
import { trimEndChars } from "@mw/platform/text";
import type { Queues } from "@mw/platform/queues";
import type { AiService } from "../ai/index.ts";
import type { GenerateRequest } from "@mw/providers/gemini";
import type { OptionStore } from "../options/index.ts";
import { staffNameOf, ticketsByNumber } from "../tickets/index.ts";
import { conversationTitleJob, conversationTitleJobId } from "./jobs.ts";
import { analyseOrganisation, formatAnalysis, organisationQuestion } from "./organisation.ts";
import { loadDocumentRecords, loadSiteRecords, loadTicketRecords, ticketVectorId, type KnowledgeRecord } from "./records.ts";
import type { Knowledge } from "./service.ts";
import { enabledSources } from "./sync.ts";

interface ChatDeps {
  prisma: PrismaClient;
  redis: RedisClient;
  options: OptionStore;
  ai: AiService;
  config: Pick<Config, "TICKET_SYSTEM_URL" | "QUEUE_PREFIX" | "CHAT_STREAMS_PER_STAFF">;
}

interface ChatRequest {
  staffId: number;
  message: string;
  ticket_number?: string;
  agent_name?: string;
  conversation_id?: number;
}

interface ContextItem {
  record: KnowledgeRecord;
  /** why it is in the context: the viewed ticket, a #reference, cited earlier, or an index match */
  reason: "this_ticket" | "reference" | "carried" | "match";
  link: string;
}

/** What a question turned into before anything is streamed: the context, and how it will be answered. */
interface PreparedChat {
  request: ChatRequest;
  chatbot: string;
  /** The model's request, or null when the answer is text already (no provider key, organisation analysis). */
  model: GenerateRequest | null;
  /** The answer when no model writes it. */
  text: () => Promise<string>;
  context: ContextItem[];
}

/** What the model sees of one record: enough for most tickets while several fit. */
const CONTEXT_CHARS = 2500;
const HISTORY_MESSAGES = 10;

const THIS_TICKET = /\b(?:this|the current|current)\s+(?:ticket|issue|case|request|one)\b/i;

/** `#<number>` references of a text (spec 2, 4.6), as written. */
export function ticketReferences(text: string): string[] {
  return [...new Set([...text.matchAll(/(?<![\w&])#(\d{1,10})\b/g)].map((found) => found[1]!))];
}

function linkOf(record: Pick<KnowledgeRecord, "id" | "source" | "ref">, ticketSystemUrl: string | undefined): string {
  if (record.source === "ticket") return `${trimEndChars(ticketSystemUrl ?? "", "/")}/scp/tickets.php?id=${record.id.slice("ticket_".length)}`;
  if (record.source === "brand") return /^https?:/.test(record.ref) ? record.ref : `https://${record.ref}`;
  return record.ref;
}

/** The conversation, if it is the staff member's own: another's is as good as absent. */
async function ownConversation(prisma: PrismaClient, staffId: number, id: number) {
  const conversation = await prisma.assistantConversation.findFirst({ where: { id, staff_id: staffId } });
  if (!conversation) throw errors.notFound("Conversation not found.");
  return conversation;
}

/** Records for the ids, from where each source keeps its content. */
async function recordsOf(prisma: PrismaClient, ids: string[]): Promise<Map<string, KnowledgeRecord>> {
  const ticketIds = ids.filter((id) => id.startsWith("ticket_")).map((id) => Number(id.slice(7)));
  const siteIds = ids.filter((id) => /^site-\d+$/.test(id)).map((id) => Number(id.slice(5)));
  const documentIds = (await prisma.knowledgeDocument.findMany({ where: { vector_id: { in: ids } }, select: { id: true } })).map((row) => row.id);
  const records = [
    ...(ticketIds.length ? await loadTicketRecords(prisma, ticketIds) : []),
    ...(siteIds.length ? await loadSiteRecords(prisma, siteIds) : []),
    ...(documentIds.length ? await loadDocumentRecords(prisma, documentIds) : []),
  ];
  return new Map(records.map((record) => [record.id, record]));
}

/**
 * Spec 2, 4.6 retrieval rules: the viewed ticket when the question says
 * "this ticket", `#<number>` references from the mirror, tickets cited
 * earlier in the conversation, then one index query filtered on the enabled
 * sources; at most `ai_max_context_tickets` records in all. Organisation
 * analysis questions bypass the index.
 */
export async function prepareChat(deps: ChatDeps, knowledge: Knowledge, request: ChatRequest): Promise<PreparedChat> {
  const history = request.conversation_id
    ? (await ownConversation(deps.prisma, request.staffId, request.conversation_id)) &&
      (await deps.prisma.assistantMessage.findMany({ where: { conversation_id: request.conversation_id }, orderBy: { id: "desc" }, take: 50 })).reverse()
    : [];
  const chatbot = await deps.options.get("ai_chatbot_name");
  const hasProvider = await deps.ai.hasProvider();

  const organisation = await organisationQuestion(deps.prisma, request.message);
  if (organisation) {
    return { request, chatbot, model: null, context: [], text: async () => formatAnalysis(await analyseOrganisation(deps, organisation)) };
  }

  const limit = await deps.options.get("ai_max_context_tickets");
  const wanted: { id: string; reason: ContextItem["reason"] }[] = [];
  if (request.ticket_number && THIS_TICKET.test(request.message)) {
    for (const ticket of await ticketsByNumber(deps.prisma, [request.ticket_number])) wanted.push({ id: ticketVectorId(ticket.id), reason: "this_ticket" });
  }
  for (const ticket of await ticketsByNumber(deps.prisma, ticketReferences(request.message))) wanted.push({ id: ticketVectorId(ticket.id), reason: "reference" });
  const cited = history
    .filter((message) => message.role === "assistant")
    .reverse()
    .flatMap((message) => (Array.isArray(message.cited_tickets) ? (message.cited_tickets as string[]) : []));
  for (const ticket of await ticketsByNumber(deps.prisma, [...new Set(cited)])) wanted.push({ id: ticketVectorId(ticket.id), reason: "carried" });
  const matches = await knowledge.search(request.message, await enabledSources(deps.options), limit);
  for (const match of matches) wanted.push({ id: match.id, reason: "match" });

  // The first reason a record is wanted for counts: a reference pushes out the weakest match, never the other way round.
  const seen = new Set<string>();
  const ordered = wanted.filter((item) => !seen.has(item.id) && Boolean(seen.add(item.id))).slice(0, limit);
  const records = await recordsOf(deps.prisma, ordered.map((item) => item.id));
  const context = ordered.flatMap((item) => {
    const record = records.get(item.id);
    return record ? [{ record, reason: item.reason, link: linkOf(record, deps.config.TICKET_SYSTEM_URL) }] : [];
  });

  const listing = async () => retrievalText(chatbot, context);
  if (!hasProvider) return { request, chatbot, model: null, context, text: listing };
  const system = [
    `You are ${chatbot}, the support team's knowledge assistant${request.agent_name ? `, talking with ${request.agent_name}` : ""}.`,
    "Answer from the context records; say so when they do not hold the answer. Cite tickets as #<number>. Be concise.",
    request.ticket_number ? `The ticket the staff member is viewing is #${request.ticket_number}; "this ticket" means it.` : "",
  ]
    .filter(Boolean)
    .join("\n");
  const blocks = context.map((item, i) => `[${i + 1}] ${item.record.source} ${item.record.title} (${item.link})\n${item.record.text.slice(0, CONTEXT_CHARS)}`);
  const past = history.slice(-HISTORY_MESSAGES).map((message) => `${message.role === "user" ? "Staff" : chatbot}: ${message.content}`);
  const prompt = [`Context records:\n${blocks.join("\n\n") || "(none found)"}`, past.length ? `Conversation so far:\n${past.join("\n")}` : "", `Question: ${request.message}`].filter(Boolean).join("\n\n");
  return { request, chatbot, model: { system, prompt, temperature: 0.3 }, context, text: listing };
}

/** Without a provider key the answer is the retrieval itself: the top matches with their titles, sources and links. */
function retrievalText(chatbot: string, context: ContextItem[]): string {
  if (!context.length) return `${chatbot}: no AI provider is configured and nothing in the knowledge index matches the question.`;
  const lines = context.map((item, i) => `${i + 1}. ${item.record.title} (${item.record.source}) — ${item.link}`);
  return `${chatbot}: no AI provider is configured, so here are the closest records.\n\n${lines.join("\n")}`;
}

/** The answer's pieces as they come: the model's stream, or the prepared text in word-sized pieces. */
export async function* answerStream(deps: Pick<ChatDeps, "ai">, prepared: PreparedChat, signal: AbortSignal): AsyncGenerator<string> {
  const stream = prepared.model ? await deps.ai.streamAssistant(prepared.model, signal) : null;
  if (stream) {
    yield* stream;
    return;
  }
  const text = await prepared.text();
  for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
    if (signal.aborted) return;
    yield piece;
  }
}

/** Spec 2, 4.6: the tickets an answer cites, `#<number>` references that exist in the mirror, as their numbers. */
async function citedTickets(prisma: PrismaClient, answer: string): Promise<string[]> {
  return (await ticketsByNumber(prisma, ticketReferences(answer))).map((ticket) => ticket.number);
}

/**
 * Both messages stored together, after the stream ended well (a failed or
 * cut stream stores nothing); a new conversation is created here. `first`
 * says the conversation had no messages before (it gets its title then).
 */
async function storeExchange(prisma: PrismaClient, request: ChatRequest, answer: string, cited: string[]): Promise<{ conversation_id: number; message_id: number; first: boolean }> {
  return prisma.$transaction(async (tx) => {
    const conversation = request.conversation_id ? { id: request.conversation_id } : await tx.assistantConversation.create({ data: { staff_id: request.staffId } });
    const first = (await tx.assistantMessage.count({ where: { conversation_id: conversation.id } })) === 0;
    await tx.assistantMessage.create({ data: { conversation_id: conversation.id, role: "user", content: request.message } });
    const message = await tx.assistantMessage.create({ data: { conversation_id: conversation.id, role: "assistant", content: answer, cited_tickets: cited } });
    await tx.assistantConversation.update({ where: { id: conversation.id }, data: { updated: new Date() } });
    return { conversation_id: conversation.id, message_id: message.id, first };
  });
}

/** A streamed answer kept: the exchange stored with the tickets it cites, and a new conversation's title job queued. */
export async function recordAnswer(deps: { prisma: PrismaClient; queues: Queues }, request: ChatRequest, answer: string): Promise<{ conversation_id: number; message_id: number; cited_tickets: string[] }> {
  const cited = await citedTickets(deps.prisma, answer);
  const stored = await storeExchange(deps.prisma, request, answer, cited);
  if (stored.first) await deps.queues.add(conversationTitleJob, { conversation_id: stored.conversation_id }, { jobId: conversationTitleJobId(stored.conversation_id) });
  return { conversation_id: stored.conversation_id, message_id: stored.message_id, cited_tickets: cited };
}

/** Whom the chat page names as the agent: the staff member's name in the mirror, null when it does not know them. */
export function chatAgentName(deps: { prisma: PrismaClient }, staffId: number): Promise<string | null> {
  return staffNameOf(deps.prisma, staffId);
}

/**
 * Design 10.5: a staff member's open chat streams, across API processes.
 * Answers the release, or throws 429 when the limit is reached. The key
 * expires, so a process that died mid-stream does not hold a slot for ever.
 */
export async function acquireChatSlot(deps: Pick<ChatDeps, "redis" | "config">, staffId: number): Promise<() => Promise<void>> {
  const key = `${deps.config.QUEUE_PREFIX}:knowledge:chat-streams:${staffId}`;
  const open = await deps.redis.incr(key);
  await deps.redis.expire(key, 600);
  if (open > deps.config.CHAT_STREAMS_PER_STAFF) {
    await deps.redis.decr(key);
    throw new AppError(429, "rate_limited", `You have ${deps.config.CHAT_STREAMS_PER_STAFF} answers streaming already; wait for one to finish.`);
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await deps.redis.decr(key);
  };
}

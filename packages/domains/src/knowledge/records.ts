import { htmlToText } from "../ai/index.ts";
import { managedSiteRows } from "../managed-sites/index.ts";
import type { PrismaClient } from "@mw/platform/database";
import { sha256Hex } from "@mw/platform/crypto";
import { truncateCodePoints } from "@mw/platform/text";
import { ticketsWithRecentEntries } from "../tickets/index.ts";

/** Spec 2, 2.4: the sources of the index, each with its bit for the search threads' filter. */
export const SOURCES = ["ticket", "site", "wiki", "docs", "brand"] as const;
export type Source = (typeof SOURCES)[number];
export const SOURCE_BITS: Record<Source, number> = { ticket: 1, site: 2, wiki: 4, docs: 8, brand: 16 };

export function sourceMask(sources: readonly Source[]): number {
  return sources.reduce((mask, source) => mask | SOURCE_BITS[source], 0);
}

/**
 * What one record embeds: gemini-embedding-001 reads 2048 tokens; at about
 * 3.5 characters a token this stays inside it (design 10.8: cut to the
 * model's input limit), and the local embedding reads the same text.
 */
const EMBEDDING_INPUT_CHARS = 7000;

/** One record of the index: its spec 2, 2.4 id, source, what a reader sees of it, and the text that is embedded. */
export interface KnowledgeRecord {
  id: string;
  source: Source;
  title: string;
  /** ticket number, site URL, document path or URL */
  ref: string;
  text: string;
  /** sha256 of `text`: unchanged content is not embedded again */
  hash: string;
}

function record(fields: Omit<KnowledgeRecord, "hash" | "text"> & { text: string }): KnowledgeRecord {
  const text = truncateCodePoints(fields.text.replace(/[ \t]+/g, " ").replace(/\n{3,}/g, "\n\n").trim(), EMBEDDING_INPUT_CHARS);
  return { ...fields, title: truncateCodePoints(fields.title, 255), ref: truncateCodePoints(fields.ref, 500), text, hash: sha256Hex(text) };
}

export const ticketVectorId = (ticketId: number) => `ticket_${ticketId}`;

const plain = (body: string, format: string) => (format === "html" ? htmlToText(body) : body).trim();

type TicketRow = { id: number; number: string; subject: string; status: string; client_name: string | null; ticket_summary: string | null; organisation: { name: string } | null };
type EntryRow = { type: string; poster_name: string; body: string; format: string; posted_at: Date };

/**
 * Design 10.8: one vector per ticket, `ticket_<id>`: its subject, summary and
 * the most recent thread that fits (newest kept first, shown in order).
 */
export function ticketRecord(ticket: TicketRow, entries: EntryRow[]): KnowledgeRecord {
  const head = [
    `Ticket #${ticket.number}: ${ticket.subject}`,
    `Status: ${ticket.status}${ticket.organisation ? ` · Organisation: ${ticket.organisation.name}` : ""}${ticket.client_name ? ` · Client: ${ticket.client_name}` : ""}`,
    ticket.ticket_summary ? `Summary: ${htmlToText(ticket.ticket_summary)}` : "",
  ]
    .filter(Boolean)
    .join("\n");
  let room = EMBEDDING_INPUT_CHARS - head.length;
  const recent: string[] = [];
  for (const entry of [...entries].sort((a, b) => b.posted_at.getTime() - a.posted_at.getTime())) {
    const line = `[${entry.type === "M" ? "Client" : entry.type === "N" ? "Note" : "Staff"}] ${entry.poster_name}: ${plain(entry.body, entry.format)}`;
    if (room <= 0) break;
    recent.unshift(truncateCodePoints(line, room));
    room -= line.length + 2;
  }
  return record({ id: ticketVectorId(ticket.id), source: "ticket", title: `#${ticket.number} ${ticket.subject}`, ref: ticket.number, text: [head, ...recent].join("\n\n") });
}

/** The tickets' records, read from the mirror (the last 50 entries of each at most). */
export async function loadTicketRecords(prisma: PrismaClient, ticketIds: number[]): Promise<KnowledgeRecord[]> {
  const tickets = await ticketsWithRecentEntries(prisma, ticketIds);
  return tickets.map((ticket) => ticketRecord(ticket, ticket.entries));
}

type SiteRow = { id: number; name: string; url: string; client: string | null; status: string; hosting: string | null; notes: string | null; wp_name: string | null; wp_description: string | null; plugins: unknown };

/** `site-<id>`: a managed site's metadata (design 10.6). */
function siteRecord(site: SiteRow): KnowledgeRecord {
  const plugins = Array.isArray(site.plugins) ? (site.plugins as { name?: string; version?: string; active?: boolean }[]).map((plugin) => `${plugin.name ?? "?"} ${plugin.version ?? ""}${plugin.active === false ? " (inactive)" : ""}`.trim()) : [];
  const text = [
    `Client site ${site.name} (${site.url})`,
    site.client && `Client: ${site.client}`,
    `Status: ${site.status}`,
    site.hosting && `Hosting: ${site.hosting}`,
    site.wp_name && `WordPress site name: ${site.wp_name}`,
    site.wp_description && `Description: ${site.wp_description}`,
    plugins.length ? `Plugins: ${plugins.join(", ")}` : "",
    site.notes && `Notes: ${site.notes}`,
  ]
    .filter(Boolean)
    .join("\n");
  return record({ id: `site-${site.id}`, source: "site", title: site.name, ref: site.url, text });
}

export async function loadSiteRecords(prisma: PrismaClient, siteIds?: number[]): Promise<KnowledgeRecord[]> {
  return (await managedSiteRows(prisma, siteIds)).map(siteRecord);
}

type DocumentRow = { id: number; vector_id: string | null; source: string; title: string; location: string; content: string };

/** A wiki article (`docs-<id>`), documentation page (`<path-slug>`) or brand page (`<domain>`) added by the CLI. */
function documentRecord(document: DocumentRow): KnowledgeRecord {
  return record({ id: document.vector_id ?? `docs-${document.id}`, source: document.source as Source, title: document.title, ref: document.location, text: `${document.title}\n\n${document.content}` });
}

export async function loadDocumentRecords(prisma: PrismaClient, documentIds?: number[]): Promise<KnowledgeRecord[]> {
  const documents = await prisma.knowledgeDocument.findMany({ where: documentIds ? { id: { in: documentIds } } : {}, orderBy: { id: "asc" } });
  return documents.map(documentRecord);
}

import type { Config } from "@mw/platform/config";
import type { RedisClient } from "@mw/platform/redis";
import type { PrismaClient } from "@mw/platform/database";
import type { OptionStore } from "../options/index.ts";
import { allTicketIds, ticketIdsChangedSince } from "../tickets/index.ts";
import { loadDocumentRecords, loadSiteRecords, loadTicketRecords, SOURCES, ticketVectorId, type Source } from "./records.ts";
import type { Knowledge, SyncCounts } from "./service.ts";

const TICKET_PAGE = 500;

type Progress = (done: number, total: number, note?: string) => Promise<void>;

/** Design 10.8: the ticket source is always on, whatever the setting holds. */
export async function enabledSources(options: OptionStore): Promise<Source[]> {
  const chosen = new Set<Source>(["ticket", ...(await options.get("ai_enabled_sources"))]);
  return SOURCES.filter((source) => chosen.has(source));
}

/** What the last embedding run did, shown by the assistant status. */
export interface EmbeddingRun {
  kind: "embeddings" | "sync-all" | "sync-site" | "reembed-ticket" | "embed-document";
  started_at: string;
  finished_at: string;
  embedded: number;
  unchanged: number;
  removed?: number;
}

const runKey = (prefix: string) => `${prefix}:knowledge:last-run`;
const watermarkKey = (prefix: string) => `${prefix}:knowledge:tickets-embedded-until`;

export async function recordRun(redis: RedisClient, prefix: string, run: EmbeddingRun): Promise<void> {
  await redis.set(runKey(prefix), JSON.stringify(run));
}

export async function lastRun(redis: RedisClient, prefix: string): Promise<EmbeddingRun | null> {
  const stored = await redis.get(runKey(prefix));
  return stored ? (JSON.parse(stored) as EmbeddingRun) : null;
}

async function syncTicketIds(knowledge: Knowledge, prisma: PrismaClient, ids: number[], progress: Progress, force = false): Promise<SyncCounts> {
  const total: SyncCounts = { embedded: 0, unchanged: 0 };
  for (let start = 0; start < ids.length; start += TICKET_PAGE) {
    const counts = await knowledge.sync(await loadTicketRecords(prisma, ids.slice(start, start + TICKET_PAGE)), { force });
    total.embedded += counts.embedded;
    total.unchanged += counts.unchanged;
    await progress(Math.min(start + TICKET_PAGE, ids.length), ids.length, "tickets");
  }
  return total;
}

/**
 * The 10-minute cron (spec 2, 4.6): tickets changed, or given entries, since
 * the last run (all of them the first time), embedded when their content
 * hash differs. The watermark moves only after a run that finished.
 */
export async function embedChangedTickets(knowledge: Knowledge, deps: { prisma: PrismaClient; redis: RedisClient; config: Pick<Config, "QUEUE_PREFIX"> }, progress: Progress): Promise<SyncCounts> {
  const started = new Date();
  const key = watermarkKey(deps.config.QUEUE_PREFIX);
  const stored = await deps.redis.get(key);
  const ids = stored ? await ticketIdsChangedSince(deps.prisma, new Date(stored)) : await allTicketIds(deps.prisma);
  const counts = await syncTicketIds(knowledge, deps.prisma, ids, progress);
  // A minute of overlap: a ticket written while this run read is looked at again (its hash makes that cheap).
  await deps.redis.set(key, new Date(started.getTime() - 60_000).toISOString());
  return counts;
}

/** One ticket embedded again whatever its hash says (spec 2, 4.6 `reembed`). */
export async function reembedTicket(knowledge: Knowledge, deps: { prisma: PrismaClient }, ticketId: number): Promise<SyncCounts> {
  return knowledge.sync(await loadTicketRecords(deps.prisma, [ticketId]), { force: true });
}

/** A document added by knowledge:add, embedded when its content changed. */
export async function syncDocument(knowledge: Knowledge, deps: { prisma: PrismaClient }, documentId: number): Promise<SyncCounts> {
  return knowledge.sync(await loadDocumentRecords(deps.prisma, [documentId]));
}

/**
 * Every source into the index (vector_sync_all; the re-embed after a model
 * change): tickets, managed sites and documents, each embedded when its
 * content, model or index changed; records whose origin is gone are removed.
 */
export async function syncAll(knowledge: Knowledge, deps: { prisma: PrismaClient }, progress: Progress): Promise<SyncCounts & { removed: number }> {
  const ticketIds = await allTicketIds(deps.prisma);
  const tickets = await syncTicketIds(knowledge, deps.prisma, ticketIds, progress);
  const sites = await loadSiteRecords(deps.prisma);
  const documents = await loadDocumentRecords(deps.prisma);
  const others = await knowledge.sync([...sites, ...documents]);
  await progress(ticketIds.length, ticketIds.length, "sites and documents");
  let removed = await knowledge.prune("ticket", new Set(ticketIds.map(ticketVectorId)));
  removed += await knowledge.prune("site", new Set(sites.map((record) => record.id)));
  for (const source of ["wiki", "docs", "brand"] as const) removed += await knowledge.prune(source, new Set(documents.filter((record) => record.source === source).map((record) => record.id)));
  return { embedded: tickets.embedded + others.embedded, unchanged: tickets.unchanged + others.unchanged, removed };
}

/** One managed site (vector_sync_site); a site deleted since is removed from the index. */
export async function syncSite(knowledge: Knowledge, deps: { prisma: PrismaClient }, siteId: number): Promise<SyncCounts & { removed: number }> {
  const records = await loadSiteRecords(deps.prisma, [siteId]);
  if (!records.length) {
    const all = await loadSiteRecords(deps.prisma);
    return { embedded: 0, unchanged: 0, removed: await knowledge.prune("site", new Set(all.map((record) => record.id))) };
  }
  return { ...(await knowledge.sync(records, { force: true })), removed: 0 };
}

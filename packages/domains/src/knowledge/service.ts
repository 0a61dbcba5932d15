import type { AiService } from "../ai/index.ts";
import { EMBEDDING_DIMENSIONS } from "../ai/index.ts";
import type { Config } from "@mw/platform/config";
import type { Logger } from "@mw/platform/logging";
import { Prisma, type PrismaClient } from "@mw/platform/database";
import { egressGuard } from "@mw/platform/egress";
import type { OptionStore } from "../options/index.ts";
import { PineconeClient } from "@mw/providers/pinecone";
import { SOURCES, type KnowledgeRecord, type Source } from "./records.ts";
import { SearchPool } from "./search-pool.ts";
import { EmbeddedIndex, PineconeIndex, writeLedger, type Match, type VectorIndex } from "./vector-index.ts";

interface KnowledgeDeps {
  prisma: PrismaClient;
  config: Pick<Config, "PINECONE_HOST" | "PINECONE_API_KEY" | "PINECONE_TIMEOUT_MS" | "ALLOW_PRIVATE_URLS">;
  options: OptionStore;
  ai: AiService;
  logger: Logger;
}

/** Records embedded per provider call and per ledger write. */
const EMBED_BATCH = 100;

export interface SyncCounts {
  embedded: number;
  unchanged: number;
}

/**
 * The knowledge index of one process: which index is in use (Pinecone when
 * a host is configured, else the embedded one), embedding records whose
 * content, model or index changed, and searching with a question.
 */
export class Knowledge {
  private pool?: SearchPool;
  private readonly embedded: EmbeddedIndex;
  private pinecone?: { host: string; apiKey: string; index: PineconeIndex };
  private readonly deps: KnowledgeDeps;

  /** Keeps only what it uses of `deps` (a process's whole context may be passed). */
  constructor({ prisma, config, options, ai, logger }: KnowledgeDeps) {
    this.deps = { prisma, config, options, ai, logger };
    this.embedded = new EmbeddedIndex(prisma, () => (this.pool ??= new SearchPool()));
  }

  /**
   * Pinecone's host and key: the environment over the ticket-system settings.
   * PINECONE_API_KEY goes only to PINECONE_HOST: a host entered as an option
   * gets the option's key, so whoever may set options cannot point the
   * environment's key at a host of their choosing.
   */
  async pineconeSettings(): Promise<{ host: string; apiKey: string } | null> {
    const { PINECONE_HOST, PINECONE_API_KEY } = this.deps.config;
    const optionKey = async () => (await this.deps.options.get("ai_vector_api_key")) ?? "";
    if (PINECONE_HOST) return { host: PINECONE_HOST, apiKey: PINECONE_API_KEY ?? (await optionKey()) };
    const host = await this.deps.options.get("ai_vector_host");
    return host ? { host, apiKey: await optionKey() } : null;
  }

  async index(): Promise<VectorIndex> {
    const settings = await this.pineconeSettings();
    if (!settings) return this.embedded;
    if (this.pinecone?.host !== settings.host || this.pinecone.apiKey !== settings.apiKey) {
      // A host from the ai_vector_host option was entered through the API: the egress guard checks it.
      const egress = this.deps.config.PINECONE_HOST ? undefined : egressGuard(this.deps.config);
      this.pinecone = { ...settings, index: new PineconeIndex(new PineconeClient({ host: settings.host, apiKey: settings.apiKey, timeoutMs: this.deps.config.PINECONE_TIMEOUT_MS, egress })) };
    }
    return this.pinecone.index;
  }

  /**
   * Embeds the records that need it (new, changed content, another model or
   * dimension, or not in the index in use) and stores them; `force` embeds
   * every one. `progress` hears after each batch.
   */
  async sync(records: KnowledgeRecord[], options: { force?: boolean; progress?: (done: number, total: number) => Promise<void> } = {}): Promise<SyncCounts> {
    const [model, index] = await Promise.all([this.deps.ai.embeddingModel(), this.index()]);
    const wanted = options.force ? records : await this.needing(records, model, index.kind);
    for (let start = 0; start < wanted.length; start += EMBED_BATCH) {
      const batch = wanted.slice(start, start + EMBED_BATCH);
      const vectors = await this.deps.ai.embed(model, batch.map((record) => record.text), "RETRIEVAL_DOCUMENT");
      const items = batch.map((record, i) => ({ record, vector: vectors[i]! }));
      await index.store(items, model);
      await writeLedger(this.deps.prisma, items, model, index.kind === "embedded");
      await options.progress?.(start + batch.length, wanted.length);
    }
    return { embedded: wanted.length, unchanged: records.length - wanted.length };
  }

  private async needing(records: KnowledgeRecord[], model: string, kind: VectorIndex["kind"]): Promise<KnowledgeRecord[]> {
    if (!records.length) return [];
    const rows = await this.deps.prisma.$queryRaw<{ id: string; content_hash: string; model: string; dimension: number; has_vector: number | bigint }[]>`
      SELECT id, content_hash, model, dimension, vector IS NOT NULL AS has_vector FROM knowledge_vectors WHERE id IN (${Prisma.join(records.map((record) => record.id))})`;
    const byId = new Map(rows.map((row) => [row.id, row]));
    return records.filter((record) => {
      const row = byId.get(record.id);
      // A vector kept locally means the record is not in Pinecone, and the other way round.
      return !row || row.content_hash !== record.hash || row.model !== model || row.dimension !== EMBEDDING_DIMENSIONS || Boolean(Number(row.has_vector)) !== (kind === "embedded");
    });
  }

  /** Removes records of `source` that are no longer in `keep` (a deleted site or document) from the index and the ledger. */
  async prune(source: Source, keep: Set<string>): Promise<number> {
    const rows = await this.deps.prisma.knowledgeVector.findMany({ where: { source }, select: { id: true } });
    const gone = rows.map((row) => row.id).filter((id) => !keep.has(id));
    if (!gone.length) return 0;
    await (await this.index()).remove(gone);
    await this.deps.prisma.knowledgeVector.deleteMany({ where: { id: { in: gone } } });
    return gone.length;
  }

  /** Ledger rows embedded by another model or dimension than the current ones: a full re-embed is due while any remain. */
  async staleCount(): Promise<number> {
    const model = await this.deps.ai.embeddingModel();
    return this.deps.prisma.knowledgeVector.count({ where: { OR: [{ model: { not: model } }, { dimension: { not: EMBEDDING_DIMENSIONS } }] } });
  }

  /** Spec 2, 4.6: the question embedded (RETRIEVAL_QUERY) and the index queried once, filtered on `sources`. */
  async search(question: string, sources: readonly Source[], topK: number): Promise<Match[]> {
    const [model, index] = await Promise.all([this.deps.ai.embeddingModel(), this.index()]);
    const [vector] = await this.deps.ai.embed(model, [question], "RETRIEVAL_QUERY");
    return index.search(vector!, { topK, sources, model });
  }

  /** Records in the ledger per source, for the current model. */
  async counts(): Promise<Record<Source, number>> {
    const model = await this.deps.ai.embeddingModel();
    const grouped = await this.deps.prisma.knowledgeVector.groupBy({ by: ["source"], where: { model }, _count: { _all: true } });
    const counts = Object.fromEntries(SOURCES.map((source) => [source, 0])) as Record<Source, number>;
    for (const row of grouped) if (row.source in counts) counts[row.source as Source] = row._count._all;
    return counts;
  }

  async close(): Promise<void> {
    await this.pool?.close();
  }
}

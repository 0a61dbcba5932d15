import { Prisma, type PrismaClient } from "@mw/platform/database";
import { PineconeClient } from "@mw/providers/pinecone";
import type { KnowledgeRecord, Source } from "./records.ts";
import { SOURCE_BITS, sourceMask } from "./records.ts";
import type { SearchPool } from "./search-pool.ts";

interface Embedded {
  record: KnowledgeRecord;
  vector: Float32Array;
}

export interface Match {
  id: string;
  source: Source;
  title: string;
  ref: string;
  score: number;
}

interface IndexStats {
  vector_count: number;
  namespace: string;
  dimension: number | null;
}

/**
 * Where vectors live (design 10.5): Pinecone, or the embedded default in
 * MariaDB. Either way `knowledge_vectors` is the ledger of what was embedded
 * from which content by which model; the embedded index keeps the vector
 * there too.
 */
export interface VectorIndex {
  readonly kind: "pinecone" | "embedded";
  /** Spec 2, 2.4: one default namespace, "" on the wire. */
  readonly namespace: string;
  store(items: Embedded[], model: string): Promise<void>;
  /** The topK nearest records of `model` among `sources`. */
  search(vector: Float32Array, options: { topK: number; sources: readonly Source[]; model: string }): Promise<Match[]>;
  remove(ids: string[]): Promise<void>;
  stats(model: string): Promise<IndexStats>;
}

function vectorBytes(vector: Float32Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength) as ArrayBuffer);
}

/** The ledger rows of `items` (the vector itself only for the embedded index). */
export async function writeLedger(prisma: PrismaClient, items: Embedded[], model: string, keepVector: boolean): Promise<void> {
  const embeddedAt = new Date();
  for (let start = 0; start < items.length; start += 100) {
    const rows = items.slice(start, start + 100).map(({ record, vector }) =>
      Prisma.sql`(${record.id}, ${record.source}, ${record.title}, ${record.ref}, ${record.hash}, ${model}, ${vector.length}, ${keepVector ? Buffer.from(vectorBytes(vector)) : null}, ${embeddedAt})`,
    );
    await prisma.$executeRaw`INSERT INTO knowledge_vectors (id, source, title, ref, content_hash, model, dimension, vector, embedded_at) VALUES ${Prisma.join(rows)}
      ON DUPLICATE KEY UPDATE source = VALUES(source), title = VALUES(title), ref = VALUES(ref), content_hash = VALUES(content_hash), model = VALUES(model), dimension = VALUES(dimension), vector = VALUES(vector), embedded_at = VALUES(embedded_at)`;
  }
}

/** How far a reload looks back past the newest row it has seen: rows committed late with an earlier time are still picked up. */
const RELOAD_OVERLAP_MS = 5_000;
const LOAD_PAGE = 2_000;

/**
 * The embedded index: vectors in `knowledge_vectors`, searched exactly by
 * the SearchPool's threads. Before a search the pool catches up with the
 * table (rows newer than it has seen; everything again when the model
 * changed or a count shows rows were deleted), one cheap query when nothing changed.
 */
export class EmbeddedIndex implements VectorIndex {
  readonly kind = "embedded";
  readonly namespace = "";
  private loaded?: { model: string; newest: number };
  private catchingUp?: { model: string; done: Promise<void> };

  constructor(
    private readonly prisma: PrismaClient,
    private readonly pool: () => SearchPool,
  ) {}

  async store(): Promise<void> {
    // The ledger row is the embedded index's record; the service writes it.
  }

  async search(vector: Float32Array, options: { topK: number; sources: readonly Source[]; model: string }): Promise<Match[]> {
    await this.catchUp(options.model);
    const hits = await this.pool().query(vector, options.topK, sourceMask(options.sources));
    if (!hits.length) return [];
    const rows = await this.prisma.knowledgeVector.findMany({ where: { id: { in: hits.map((hit) => hit.id) } }, select: { id: true, source: true, title: true, ref: true } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return hits.flatMap((hit) => {
      const row = byId.get(hit.id);
      return row ? [{ ...row, source: row.source as Source, score: hit.score }] : [];
    });
  }

  /** One catch-up at a time: concurrent questions wait for the same one, and go again if it loaded another model. */
  private async catchUp(model: string): Promise<void> {
    for (;;) {
      const current = (this.catchingUp ??= { model, done: this.load(model).finally(() => (this.catchingUp = undefined)) });
      await current.done;
      if (current.model === model) return;
    }
  }

  private async load(model: string): Promise<void> {
    const pool = this.pool();
    const [{ count, newest }] = await this.prisma.$queryRaw<{ count: bigint; newest: Date | null }[]>`SELECT COUNT(*) AS count, MAX(embedded_at) AS newest FROM knowledge_vectors WHERE model = ${model} AND vector IS NOT NULL` as [{ count: bigint; newest: Date | null }];
    const newestMs = newest?.getTime() ?? 0;
    if (this.loaded?.model === model && this.loaded.newest >= newestMs && pool.size === Number(count)) return;
    let since = this.loaded?.model === model && pool.size <= Number(count) ? this.loaded.newest - RELOAD_OVERLAP_MS : null;
    if (since === null) await pool.clear();
    since ??= 0;
    let after = "";
    for (;;) {
      const rows = await this.prisma.$queryRaw<{ id: string; source: string; vector: Uint8Array }[]>`SELECT id, source, vector FROM knowledge_vectors
        WHERE model = ${model} AND vector IS NOT NULL AND embedded_at >= ${new Date(since)} AND id > ${after} ORDER BY id LIMIT ${LOAD_PAGE}`;
      if (!rows.length) break;
      await pool.upsert(rows.map((row) => ({ id: row.id, sourceBit: SOURCE_BITS[row.source as Source] ?? 0, vector: new Float32Array(Uint8Array.from(row.vector).buffer) })));
      after = rows.at(-1)!.id;
    }
    this.loaded = { model, newest: newestMs };
    // Rows deleted since the last load leave the pool larger than the table: the next search starts again from nothing.
    if (pool.size !== Number(count)) this.loaded = undefined;
  }

  async remove(): Promise<void> {
    // Deleting the ledger rows removes them; the pool sees the count drop and reloads.
  }

  async stats(model: string): Promise<IndexStats> {
    const count = await this.prisma.knowledgeVector.count({ where: { model, vector: { not: null } } });
    return { vector_count: count, namespace: this.namespace, dimension: count ? 768 : null };
  }
}

/** The Pinecone index (design 10.5): metadata `source`, `title`, `ref` and `model`, so a query reads only the current model's vectors. */
export class PineconeIndex implements VectorIndex {
  readonly kind = "pinecone";
  readonly namespace = "";

  constructor(readonly client: PineconeClient) {}

  async store(items: Embedded[], model: string): Promise<void> {
    await this.client.upsert(
      items.map(({ record, vector }) => ({ id: record.id, values: Array.from(vector), metadata: { source: record.source, title: record.title, ref: record.ref, model } })),
      this.namespace,
    );
  }

  async search(vector: Float32Array, options: { topK: number; sources: readonly Source[]; model: string }): Promise<Match[]> {
    const answer = await this.client.query({ vector: Array.from(vector), topK: options.topK, namespace: this.namespace, filter: { $and: [{ source: { $in: [...options.sources] } }, { model: { $eq: options.model } }] } });
    return answer.matches.map((match) => ({
      id: match.id,
      source: String(match.metadata?.source ?? "ticket") as Source,
      title: String(match.metadata?.title ?? match.id),
      ref: String(match.metadata?.ref ?? ""),
      score: match.score,
    }));
  }

  async remove(ids: string[]): Promise<void> {
    if (ids.length) await this.client.delete(ids, this.namespace);
  }

  async stats(): Promise<IndexStats> {
    const stats = await this.client.describeIndexStats();
    return { vector_count: stats.namespaces[this.namespace]?.vectorCount ?? 0, namespace: this.namespace, dimension: stats.dimension };
  }
}

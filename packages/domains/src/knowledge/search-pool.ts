import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ShardReply, ShardRequest } from "./search-thread.ts";

interface SearchHit {
  id: string;
  score: number;
}

interface PoolVector {
  id: string;
  /** A bit of SOURCE_BITS. */
  sourceBit: number;
  vector: Float32Array;
}

type Pending = { resolve: (reply: ShardReply) => void; reject: (error: Error) => void };
type Shard = { thread: Worker; pending: Map<number, Pending> };
type WithoutSeq<T> = T extends unknown ? Omit<T, "seq"> : never;

/** Which shard holds an id: the same one every time, so an update replaces the row in place. */
function shardOf(id: string, shards: number): number {
  let h = 0;
  for (let i = 0; i < id.length; i += 1) h = (Math.imul(h, 31) + id.charCodeAt(i)) | 0;
  return Math.abs(h) % shards;
}

/**
 * A search thread. The build runs search-thread.js as it is; from the
 * sources (tests, `pnpm start`) the thread registers the TypeScript loader
 * first, which a worker does not inherit from its process.
 */
function threadOf(): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./search-thread.js", import.meta.url));
  const thread = new URL("./search-thread.ts", import.meta.url).href;
  return new Worker(`import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(thread)}); });`, { eval: true });
}

/**
 * The embedded index's search (design 10.8): vectors spread over a few
 * worker threads, each scanning its shard; a query asks every shard and
 * merges their best. Threads are unref'd, so an idle pool keeps no process alive.
 */
export class SearchPool {
  private readonly shards: Shard[];
  private seq = 0;
  private sizes: number[];

  constructor(threads = Math.max(1, Math.min(4, availableParallelism()))) {
    this.shards = Array.from({ length: threads }, () => {
      const shard: Shard = { thread: threadOf(), pending: new Map() };
      shard.thread.unref();
      shard.thread.on("message", (reply: ShardReply) => {
        shard.pending.get(reply.seq)?.resolve(reply);
        shard.pending.delete(reply.seq);
      });
      shard.thread.on("error", (error) => {
        for (const pending of shard.pending.values()) pending.reject(error);
        shard.pending.clear();
      });
      return shard;
    });
    this.sizes = this.shards.map(() => 0);
  }

  /** Search threads (shards). */
  get threads(): number {
    return this.shards.length;
  }

  /** Vectors held, over every shard. */
  get size(): number {
    return this.sizes.reduce((sum, size) => sum + size, 0);
  }

  private send(index: number, request: WithoutSeq<ShardRequest>, transfer: ArrayBuffer[] = []): Promise<ShardReply> {
    const shard = this.shards[index]!;
    const seq = (this.seq += 1);
    return new Promise((resolve, reject) => {
      shard.pending.set(seq, {
        resolve: (reply) => {
          this.sizes[index] = reply.size;
          resolve(reply);
        },
        reject,
      });
      shard.thread.postMessage({ ...request, seq }, transfer);
    });
  }

  /** Adds or replaces vectors (by id). */
  async upsert(items: PoolVector[]): Promise<void> {
    if (!items.length) return;
    const dimension = items[0]!.vector.length;
    const groups = this.shards.map(() => [] as PoolVector[]);
    for (const item of items) groups[shardOf(item.id, this.shards.length)]!.push(item);
    await Promise.all(
      groups.map((group, index) => {
        if (!group.length) return undefined;
        const vectors = new Float32Array(group.length * dimension);
        group.forEach((item, i) => vectors.set(item.vector, i * dimension));
        const sources = Uint8Array.from(group, (item) => item.sourceBit);
        return this.send(index, { op: "upsert", ids: group.map((item) => item.id), sources, vectors }, [vectors.buffer as ArrayBuffer, sources.buffer as ArrayBuffer]);
      }),
    );
  }

  async remove(ids: string[]): Promise<void> {
    const groups = this.shards.map(() => [] as string[]);
    for (const id of ids) groups[shardOf(id, this.shards.length)]!.push(id);
    await Promise.all(groups.map((group, index) => (group.length ? this.send(index, { op: "remove", ids: group }) : undefined)));
  }

  async clear(): Promise<void> {
    await Promise.all(this.shards.map((_, index) => this.send(index, { op: "clear" })));
  }

  /** The topK nearest vectors (cosine) whose source bit is in `sourceMask`, best first. */
  async query(vector: Float32Array, topK: number, sourceMask: number): Promise<SearchHit[]> {
    if (topK < 1) return [];
    const replies = await Promise.all(this.shards.map((_, index) => this.send(index, { op: "query", vector, topK, sourceMask })));
    return replies
      .flatMap((reply) => reply.hits ?? [])
      .sort((a, b) => b.score - a.score)
      .slice(0, topK);
  }

  async close(): Promise<void> {
    await Promise.all(this.shards.map((shard) => shard.thread.terminate()));
  }
}

import { Batcher, type BatchItem } from "../core/batcher.ts";
import type { RedisClient } from "../redis/redis.ts";

export interface ReplicaAckOptions {
  /** Replicas that must hold a write; 0 asks for none. */
  replicas: number;
  timeoutMs: number;
}

/** A write the master acknowledged but not enough replicas had: a failover now could lose it. */
export class UnreplicatedWriteError extends Error {
  override name = "UnreplicatedWriteError";
}

/**
 * Redis acknowledges a write before its replicas have it, so a failover right
 * after (the master killed, a replica promoted) loses a write a caller was
 * told had succeeded. WAIT blocks until replicas hold every write the
 * connection sent before it. One WAIT answers for all the writes before it,
 * so callers that ask while one is under way share the next: a burst of adds
 * costs one round trip to the replicas, not one each.
 *
 * WAIT counts the writes of the connection it is sent on, to the node it
 * reaches: it goes on the same client as the adds, in a pipeline behind a key
 * of the queue, which on a cluster takes it to that queue's master.
 */
export class ReplicaAck {
  private readonly barriers = new Map<string, Batcher<void, void>>();

  constructor(
    private readonly redis: RedisClient,
    private readonly options: ReplicaAckOptions,
  ) {}

  /** Resolves once the writes sent before it to `key`'s node are on enough replicas; rejects with UnreplicatedWriteError otherwise. */
  confirm(key: string): Promise<void> {
    if (this.options.replicas === 0) return Promise.resolve();
    let barrier = this.barriers.get(key);
    if (!barrier) {
      barrier = new Batcher({ concurrency: 1, maxBatch: Number.POSITIVE_INFINITY }, (batch) => this.wait(key, batch));
      this.barriers.set(key, barrier);
    }
    return barrier.add();
  }

  private async wait(key: string, batch: BatchItem<void, void>[]): Promise<void> {
    const { replicas, timeoutMs } = this.options;
    const replies = (await this.redis.pipeline().exists(key).call("WAIT", replicas, timeoutMs).exec()) ?? [];
    const [error, acknowledged] = replies[1] ?? [new Error("no answer to WAIT")];
    if (error) throw error;
    if (Number(acknowledged) < replicas) {
      throw new UnreplicatedWriteError(`Redis acknowledged the job, but ${Number(acknowledged)} of the ${replicas} replicas asked for held it within ${timeoutMs} ms`);
    }
    for (const pending of batch) pending.resolve();
  }
}

import { Cluster } from "ioredis";
import type { RedisClient } from "./redis.ts";
import { mastersOf } from "./redis-nodes.ts";

/**
 * Deletes every key that matches a SCAN pattern and answers how many went.
 * A cluster scans one node's keys at a time, so every master is scanned; and
 * a multi-key UNLINK over keys of different slots is refused (CROSSSLOT), so
 * on a cluster each key goes in its own UNLINK, pipelined. One node takes a
 * batch in a single UNLINK, as it always has.
 */
export async function unlinkMatching(client: RedisClient, pattern: string, count = 1000): Promise<number> {
  const cluster = client instanceof Cluster;
  let dropped = 0;
  for (const node of mastersOf(client)) {
    for await (const batch of node.scanStream({ match: pattern, count })) {
      const keys = batch as string[];
      if (keys.length === 0) continue;
      if (!cluster) {
        dropped += await node.unlink(...keys);
        continue;
      }
      const pipeline = node.pipeline();
      for (const key of keys) pipeline.unlink(key);
      for (const [error, gone] of (await pipeline.exec()) ?? []) {
        if (error) throw error;
        dropped += gone as number;
      }
    }
  }
  return dropped;
}

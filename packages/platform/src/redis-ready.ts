import { Cluster } from "ioredis";
import type { RedisClient } from "./redis.ts";
import { withTimeout } from "./time.ts";

function refreshedSlots(cluster: Cluster): Promise<void> {
  return new Promise((resolve, reject) => cluster.refreshSlotsCache((error) => (error ? reject(error) : resolve())));
}

/**
 * Resolves when Redis can serve every key now; rejects (within about
 * `timeoutMs`) naming what cannot. One node, or Sentinel's master: a PING.
 * A cluster: every master answers a PING of its own, after a fresh read of
 * which nodes are masters. A cluster holds a command for a shard without a
 * master in its offline queue rather than failing it, so one PING through
 * the cluster would hang or say nothing about the other shards.
 */
export async function pingEveryMaster(client: RedisClient, timeoutMs: number): Promise<void> {
  if (!(client instanceof Cluster)) {
    await withTimeout(client.ping(), timeoutMs);
    return;
  }
  await withTimeout(refreshedSlots(client), timeoutMs);
  const masters = client.nodes("master");
  if (masters.length === 0) throw new Error("the cluster names no master");
  await Promise.all(
    masters.map((node) =>
      withTimeout(node.ping(), timeoutMs).catch((error: unknown) => {
        throw new Error(`master ${node.options.host}:${node.options.port}: ${(error as Error).message}`);
      }),
    ),
  );
  // Every master answering is not yet every slot served: a cluster that counts a slot as uncovered says "fail".
  const info = String(await withTimeout(masters[0]!.call("CLUSTER", "INFO"), timeoutMs));
  const state = /cluster_state:(\w+)/.exec(info)?.[1];
  if (state !== "ok") throw new Error(`the cluster's state is ${state ?? "unknown"}`);
}

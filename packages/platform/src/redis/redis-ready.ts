import { Cluster, type Redis } from "ioredis";
import type { RedisClient } from "./redis.ts";
import { withTimeout } from "../core/time.ts";

function refreshedSlots(cluster: Cluster): Promise<void> {
  return new Promise((resolve, reject) => cluster.refreshSlotsCache((error) => (error ? reject(error) : resolve())));
}

/**
 * Resolves when Redis can serve every key now; rejects (within about
 * `timeoutMs`) naming what cannot. One node, or Sentinel's master: a PING.
 * A cluster: every master, after a fresh read of which nodes are masters,
 * answers for itself that the cluster serves every slot. A cluster holds a
 * command for a shard without a master in its offline queue rather than
 * failing it, so one PING through the cluster would hang or say nothing
 * about the other shards.
 */
export async function pingEveryMaster(client: RedisClient, timeoutMs: number): Promise<void> {
  if (!(client instanceof Cluster)) {
    await withTimeout(client.ping(), timeoutMs);
    return;
  }
  await withTimeout(refreshedSlots(client), timeoutMs);
  const masters = client.nodes("master");
  if (masters.length === 0) throw new Error("the cluster names no master");
  await Promise.all(masters.map((node) => servesItsSlots(node, timeoutMs)));
}

/**
 * One master answers and counts the cluster as serving: answering is not yet
 * every slot served (a cluster that counts a slot as uncovered says "fail"),
 * and each master is asked, not one for all: a master that restarted (empty,
 * if it had no replica to hand over to) refuses commands with CLUSTERDOWN
 * for its first seconds while the others still count the cluster as whole.
 */
async function servesItsSlots(node: Redis, timeoutMs: number): Promise<void> {
  const where = `master ${node.options.host}:${node.options.port}`;
  const info = String(
    await withTimeout(node.call("CLUSTER", "INFO"), timeoutMs).catch((error: unknown) => {
      throw new Error(`${where}: ${(error as Error).message}`);
    }),
  );
  const state = /cluster_state:(\w+)/.exec(info)?.[1];
  if (state !== "ok") throw new Error(`${where} counts the cluster's state as ${state ?? "unknown"}`);
}

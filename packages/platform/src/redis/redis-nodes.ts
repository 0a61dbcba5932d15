import { Cluster, type Redis } from "ioredis";
import type { RedisClient } from "./redis.ts";

/**
 * The nodes a command about every key (SCAN, FLUSHDB, SCRIPT FLUSH) must be
 * sent to: a cluster answers such a command from one node's slots only, so
 * each master is asked in turn; a single node (or Sentinel's master) is itself.
 */
export function mastersOf(client: RedisClient): Redis[] {
  return client instanceof Cluster ? client.nodes("master") : [client];
}

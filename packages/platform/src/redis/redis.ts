import { readFileSync } from "node:fs";
import type { ConnectionOptions } from "node:tls";
import { Cluster, Redis, type RedisOptions } from "ioredis";
import { parseRedisUrl } from "../config/redis-url.ts";

/** What every Redis connection of the platform is: one node (directly or found through Sentinel), or a cluster. */
export type RedisClient = Redis | Cluster;

export interface RedisClientOptions {
  blocking?: boolean;
  name?: string;
  autoPipelining?: boolean;
  /**
   * One connection attempt and no reconnect loop, no offline queue: the
   * start-up check must say what is wrong at once rather than wait out Redis.
   */
  probe?: boolean;
  /** The sentinels' own password; unset, REDIS_SENTINEL_PASSWORD (benches and tests build connections without a Config). */
  sentinelPassword?: string;
  /** A PEM file of the CA(s) that sign the Redis servers' certificates (rediss forms); unset, REDIS_TLS_CA_FILE, else Node's trusted CAs with NODE_EXTRA_CA_CERTS. */
  tlsCaFile?: string;
}

const caFiles = new Map<string, Buffer>();

/**
 * What a rediss form's connections verify the servers with: the CA file when
 * one is set (it alone is trusted then), else Node's CAs, which take
 * NODE_EXTRA_CA_CERTS in. Certificates are always checked, names included:
 * a node reached by address needs that address in its certificate (IP SAN).
 */
function tlsOptions(caFile: string | undefined): ConnectionOptions {
  if (!caFile) return {};
  let ca = caFiles.get(caFile);
  if (!ca) {
    ca = readFileSync(caFile);
    caFiles.set(caFile, ca);
  }
  return { ca };
}

/**
 * A connection still on a master that Sentinel has since turned into a
 * replica (a partition rather than a crash, or a quick restart) gets READONLY
 * for every write: it reconnects, which asks the sentinels for the master
 * again, and sends the write once more there.
 */
function reconnectOnReadOnly(error: Error): 2 | false {
  return error.message.startsWith("READONLY") ? 2 : false;
}

/**
 * Every Redis connection of every process (API, worker, CLI, preflight,
 * benches, tests) comes from here, so each REDIS_URL form works everywhere.
 *
 * `blocking` connections (BullMQ workers) must never give up on a command:
 * BullMQ requires maxRetriesPerRequest null for them (for a Cluster, inside
 * `redisOptions`, which is where BullMQ looks). Request-path connections
 * give up after two reconnection attempts, so /readyz and the API answer
 * rather than hang while Redis is down. `autoPipelining` batches the commands
 * of one event-loop turn into one write: only for plain commands on hot
 * request paths, never for BullMQ's connections (reported to lose job data).
 */
export function createRedis(url: string, options: RedisClientOptions = {}): RedisClient {
  const target = parseRedisUrl(url);
  const perNode: RedisOptions = {
    connectionName: options.name,
    maxRetriesPerRequest: options.probe ? 0 : options.blocking ? null : 2,
    connectTimeout: 5000,
  };
  const probe: RedisOptions = options.probe ? { retryStrategy: () => null, lazyConnect: true, enableOfflineQueue: false } : {};
  const enableAutoPipelining = options.autoPipelining ?? false;
  const tls = target.tls ? tlsOptions(options.tlsCaFile ?? (process.env.REDIS_TLS_CA_FILE || undefined)) : undefined;
  switch (target.kind) {
    case "single":
      // The URL as given: ioredis reads it (query options included) as it always has.
      return new Redis(url, { ...perNode, ...probe, enableAutoPipelining, ...(tls ? { tls } : {}) });
    case "sentinel":
      return new Redis({
        ...perNode,
        ...probe,
        // TLS to the sentinels and to the master (and replicas) they name.
        ...(tls ? { tls, sentinelTLS: tls, enableTLSForSentinelMode: true } : {}),
        enableAutoPipelining,
        sentinels: target.sentinels,
        name: target.masterName,
        db: target.db,
        username: target.username,
        password: target.password,
        sentinelPassword: options.sentinelPassword ?? (process.env.REDIS_SENTINEL_PASSWORD || undefined),
        reconnectOnError: reconnectOnReadOnly,
        ...(options.probe ? { sentinelRetryStrategy: () => null } : {}),
      });
    case "cluster":
      return new Cluster(target.nodes, {
        enableAutoPipelining,
        // The cluster sets its nodes' reconnect and queue options itself; a probe sets them on the cluster.
        // Each node the cluster names (CLUSTER SLOTS) is reached over TLS too, and its certificate checked against the address it is reached at.
        redisOptions: { ...perNode, username: target.username, password: target.password, ...(tls ? { tls } : {}) },
        ...(options.probe ? { lazyConnect: true, enableOfflineQueue: false, clusterRetryStrategy: () => null } : {}),
      });
  }
}

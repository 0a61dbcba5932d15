import { Cluster, Redis } from "ioredis";
import { createRedis, type RedisClient } from "./redis.ts";
import { parseRedisUrl, type RedisHost } from "../config/redis-url.ts";

/** Opens the connection a process SUBSCRIBEs on; called again whenever the last one has ended for good. */
export type SubscriberFactory = () => RedisClient;

const key = ({ host, port }: RedisHost) => `${host}:${port}`;

/**
 * Subscriber connections for REDIS_URL.
 *
 * One node, or Sentinel's master: a connection of its own from createRedis,
 * which reconnects by itself (through the sentinels to whichever node is
 * master now) and tells its owner with `close` and `ready`.
 *
 * A cluster: every node, master or replica, hears every PUBLISH of the
 * cluster, so one connection to any node will do. ioredis's Cluster keeps
 * such a connection itself, but when that node goes it moves to another
 * without an event, and messages published in between are missed unnoticed.
 * So here a cluster subscriber is a plain connection to one node that does
 * not reconnect: its `end` is the owner's cue to call the factory again,
 * which picks another node the cluster knows (`cluster`, the process's
 * shared Cluster client), avoiding the nodes whose subscriber just failed.
 */
export function subscriberFactory(url: string, cluster: RedisClient, name: string): SubscriberFactory {
  const target = parseRedisUrl(url);
  if (target.kind !== "cluster" || !(cluster instanceof Cluster)) return () => createRedis(url, { name });
  const failed = new Set<string>();
  return () => {
    const known = cluster.nodes().map((node) => ({ host: node.options.host!, port: node.options.port! }));
    const candidates = new Map([...known, ...target.nodes].map((node) => [key(node), node]));
    const healthy = [...candidates.values()].filter((node) => !failed.has(key(node)));
    const pool = healthy.length > 0 ? healthy : [...candidates.values()];
    if (healthy.length === 0) failed.clear();
    const node = pool[Math.floor(Math.random() * pool.length)]!;
    const subscriber = new Redis({
      host: node.host,
      port: node.port,
      username: target.username,
      password: target.password,
      connectionName: name,
      connectTimeout: 5000,
      maxRetriesPerRequest: 2,
      // No reconnecting to this node: the owner opens the next subscriber on another one.
      retryStrategy: () => null,
    });
    subscriber.once("ready", () => failed.clear());
    subscriber.once("end", () => failed.add(key(node)));
    return subscriber;
  };
}

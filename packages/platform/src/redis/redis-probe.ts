import type { RedisClient } from "./redis.ts";
import { describeHosts, describeRedisTarget, type RedisTarget } from "../config/redis-url.ts";

/**
 * What a one-shot connection attempt saw go wrong. A cluster reports only
 * "Failed to refresh slots cache" (ClusterAllFailedError) and "Connection is
 * closed" for a node it could not reach: the reason (ECONNREFUSED, WRONGPASS)
 * is in its node errors, so those are kept and preferred.
 */
export function watchProbe(client: RedisClient): { cause(raw: unknown): Error & { code?: string } } {
  let first: Error | undefined;
  let firstNode: Error | undefined;
  client.on("error", (error: Error) => (first ??= error));
  client.on("node error", (error: Error) => (firstNode ??= error));
  return {
    cause(raw) {
      const last = (first as { lastNodeError?: Error } | undefined)?.lastNodeError;
      return (firstNode ?? last ?? first ?? raw) as Error & { code?: string };
    },
  };
}

const NO_SENTINEL = /^All sentinels are unreachable.*?(?:Last error: (.*))?$/s;

type Problem = { line: string; exitCode: number };

/**
 * The failures only Sentinel and Cluster have, in words that say what to fix;
 * undefined for any other (a master or node refusing the password is worded
 * as for one node). ioredis folds every sentinel's answer into "All sentinels
 * are unreachable ... Last error: <the last one's>", and a cluster seed it
 * could not reach into "Connection is closed" (the refusal itself is lost).
 */
export function topologyProblem(target: RedisTarget, error: Error): Problem | undefined {
  if (target.kind === "cluster" && error.message === "Connection is closed.") {
    return {
      line: `Cannot reach Redis at ${describeRedisTarget(target)} (REDIS_URL): no node answered. Start the cluster (\`pnpm services --redis-cluster\` runs a local one) or set REDIS_URL.`,
      exitCode: 69,
    };
  }
  if (target.kind !== "sentinel") return undefined;
  const match = NO_SENTINEL.exec(error.message);
  if (!match) return undefined;
  const sentinels = describeHosts(target.sentinels);
  const last = match[1]?.trim() ?? "";
  if (/NOAUTH|WRONGPASS/.test(last)) {
    return { line: `The sentinels at ${sentinels} refused REDIS_SENTINEL_PASSWORD (${/NOAUTH/.test(last) ? "they require one and it is unset" : "wrong password"}): set it to the sentinels' requirepass.`, exitCode: 78 };
  }
  if (/No such master/i.test(last)) {
    return { line: `The sentinels at ${sentinels} know no master named "${target.masterName}": fix the name in REDIS_URL (redis+sentinel://HOST:PORT,.../MASTER).`, exitCode: 78 };
  }
  return {
    line: `Cannot reach Redis at ${describeRedisTarget(target)} (REDIS_URL): no sentinel answered${last ? ` (the last: ${last.replace(/\.$/, "")})` : ""}. Start the sentinels (\`pnpm services --redis-sentinel\` runs a local group) or set REDIS_URL.`,
    exitCode: 69,
  };
}

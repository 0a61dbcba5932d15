import type { RedisClient } from "@mw/platform";
import { median } from "./steady-rate.ts";

/** How long a write took to reach a replica while a run went on: milliseconds from sending it to a replica acknowledging it. */
export interface ReplicaLag {
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Samples no replica acknowledged within the WAIT timeout. */
  unacknowledged: number;
}

const SAMPLE_EVERY_MS = 200;
const WAIT_TIMEOUT_MS = 1000;

/**
 * Samples the replication lag of the node that holds `key` (on a cluster, its
 * shard's master) every 200 ms until stopped: a write to `key`, then WAIT for
 * one replica, timed together, as the platform's own REDIS_WAIT_REPLICAS adds
 * do. The figure is a round trip (write, replica's acknowledgement) under the
 * run's load, not the replica's data age alone.
 */
export function sampleReplicaLag(redis: RedisClient, key: string): { stop(): Promise<ReplicaLag> } {
  const times: number[] = [];
  let unacknowledged = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const replies = await redis.pipeline().set(key, String(Date.now())).call("WAIT", 1, WAIT_TIMEOUT_MS).exec();
      const acknowledged = Number(replies?.[1]?.[1] ?? 0);
      if (acknowledged >= 1) times.push(performance.now() - started);
      else unacknowledged += 1;
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      await redis.del(key);
      const sorted = [...times].sort((a, b) => a - b);
      const round = (ms: number | undefined) => Number((ms ?? Number.NaN).toFixed(1));
      return {
        samples: times.length + unacknowledged,
        p50Ms: round(median(sorted)),
        p99Ms: round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]),
        maxMs: round(sorted.at(-1)),
        unacknowledged,
      };
    },
  };
}

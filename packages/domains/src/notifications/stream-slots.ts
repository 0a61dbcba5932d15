import type { Config } from "@mw/platform/config";
import type { RedisClient } from "@mw/platform/redis";
import { randomToken } from "@mw/platform/crypto";

/**
 * How long a stream's slot holds without renewal. An open stream renews it
 * with every heartbeat; a process that died mid-stream frees its slots once
 * this has passed.
 */
export const STREAM_SLOT_LEASE_MS = 60_000;

/** Drops lapsed slots, then takes one if fewer than the limit are held: one round trip, so two opening streams cannot both take the last. */
const TAKE = `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

interface StreamSlot {
  /** Keeps the slot for another lease (call it well within STREAM_SLOT_LEASE_MS). */
  renew(): Promise<void>;
  release(): Promise<void>;
}

/**
 * One of the NOTIFICATION_STREAMS_PER_STAFF notification streams a staff
 * member may hold open at once, across API processes (a sorted set of slot
 * ids by lease end); null when all are taken. The newest stream is the one
 * refused: closing the oldest instead would start a tug of war between open
 * tabs, each reconnecting and pushing out the next.
 */
export async function takeStreamSlot(deps: { redis: RedisClient; config: Pick<Config, "QUEUE_PREFIX" | "NOTIFICATION_STREAMS_PER_STAFF"> }, staffId: number): Promise<StreamSlot | null> {
  const key = `${deps.config.QUEUE_PREFIX}:notifications:streams:${staffId}`;
  const id = randomToken(12);
  const now = Date.now();
  const taken = await deps.redis.eval(TAKE, 1, key, now, deps.config.NOTIFICATION_STREAMS_PER_STAFF, now + STREAM_SLOT_LEASE_MS, id, STREAM_SLOT_LEASE_MS);
  if (taken !== 1) return null;
  return {
    async renew() {
      await deps.redis.multi().zadd(key, Date.now() + STREAM_SLOT_LEASE_MS, id).pexpire(key, STREAM_SLOT_LEASE_MS).exec();
    },
    async release() {
      await deps.redis.zrem(key, id);
    },
  };
}

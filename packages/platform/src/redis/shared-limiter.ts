import { setTimeout as sleep } from "node:timers/promises";
import { randomUUID } from "node:crypto";
import { LuaScript } from "./lua-script.ts";
import type { RedisClient } from "./redis.ts";

/**
 * A sliding log in one sorted set: drop what left the window, admit the call
 * when fewer than `limit` remain, else answer how long until the oldest
 * leaves. Redis's own clock, so every process agrees on the window; sliding,
 * so no window boundary lets twice the limit through. The oldest leaves as
 * soon as now - window reaches it (the range is inclusive), so the wait is at
 * least 1 ms and never more than the window: a 60 s window never says 61.
 */
const TAKE_SLOT = new LuaScript(
  `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return 0
end
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return tonumber(oldest[2]) + window - now`,
  1,
);

/**
 * Takes one of `limit` slots per `windowMs` under `key`, shared by every
 * process on this Redis. Answers 0 when the call may go ahead, else the
 * milliseconds until a slot frees (the refused call takes none).
 */
export async function takeSlot(redis: RedisClient, key: string, limit: number, windowMs: number): Promise<number> {
  return Number(await TAKE_SLOT.run(redis, key, limit, windowMs, randomUUID()));
}

/**
 * At most `limit` calls per `windowMs` per key across every process sharing
 * Redis (design 10.4: Harvest's 100 requests per 15 s per account, whether
 * one worker or five are importing). `acquire` waits for a slot.
 */
export class SharedRateLimiter {
  constructor(
    private readonly redis: RedisClient,
    private readonly keyPrefix: string,
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  async acquire(key: string): Promise<void> {
    for (;;) {
      const wait = await takeSlot(this.redis, `${this.keyPrefix}:${key}`, this.limit, this.windowMs);
      if (wait <= 0) return;
      await sleep(wait);
    }
  }
}

import type { RedisClient } from "@mw/platform";

/** One round trip: count the request, and give a new window its expiry. */
const COUNT_IN_WINDOW = "local n = redis.call('INCR', KEYS[1]) if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return n";

/**
 * Counts one request against `limit` per fixed window of `windowMs`, in Redis
 * so every API process shares the count. Nothing is loaded ahead: a Redis
 * that was down when the API started limits normally once it is back.
 * Answers the seconds until the window ends when the request is over the
 * limit, else null.
 */
export async function overWindowLimit(redis: RedisClient, keyPrefix: string, limit: number, windowMs: number): Promise<number | null> {
  const window = Math.floor(Date.now() / windowMs);
  const count = (await redis.eval(COUNT_IN_WINDOW, 1, `${keyPrefix}:${window}`, windowMs)) as number;
  if (count <= limit) return null;
  return Math.max(1, Math.ceil(((window + 1) * windowMs - Date.now()) / 1000));
}

import { takeSlot, type RedisClient } from "@mw/platform";

/**
 * Counts one request against `limit` per `windowMs` (a sliding window, in
 * Redis so every API process shares the count). Nothing is loaded ahead: a
 * Redis that was down when the API started limits normally once it is back.
 * Answers the seconds until a request would be taken when this one is over
 * the limit, else null.
 */
export async function overWindowLimit(redis: RedisClient, key: string, limit: number, windowMs: number): Promise<number | null> {
  const wait = await takeSlot(redis, key, limit, windowMs);
  return wait <= 0 ? null : Math.max(1, Math.ceil(wait / 1000));
}

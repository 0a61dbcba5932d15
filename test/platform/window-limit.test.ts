import { setTimeout as sleep } from "node:timers/promises";
import { overWindowLimit } from "@mw/api/auth/window-limit";
import { createRedis } from "@mw/platform";
import { afterAll, describe, expect, it } from "vitest";

// The per-address limits of the scheduled endpoints and the AI routes: N calls
// per window, whenever in the clock's minute they come.
const redis = createRedis(process.env.REDIS_URL!);
afterAll(() => redis.quit());

const key = (name: string) => `${process.env.QUEUE_PREFIX}:window-limit-test:${name}:${Date.now()}`;

describe("overWindowLimit", () => {
  it("takes `limit` calls, then answers the seconds until the oldest leaves the window", async () => {
    const name = key("plain");
    expect([await overWindowLimit(redis, name, 2, 60_000), await overWindowLimit(redis, name, 2, 60_000)]).toEqual([null, null]);
    const retryAfter = await overWindowLimit(redis, name, 2, 60_000);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it("lets no more than `limit` through across a boundary of the clock's windows", async () => {
    // Calls late in one 2 s slice of the clock and the first just after it: a window counted per
    // slice would take all of them; the limit is per window of time, wherever the slices fall.
    const windowMs = 2000;
    while (Date.now() % windowMs < 1500) await sleep(10);
    const name = key("boundary");
    const before = [await overWindowLimit(redis, name, 3, windowMs), await overWindowLimit(redis, name, 3, windowMs), await overWindowLimit(redis, name, 3, windowMs)];
    expect(before).toEqual([null, null, null]);
    const boundary = Math.ceil(Date.now() / windowMs) * windowMs;
    while (Date.now() <= boundary + 20) await sleep(5);
    expect(await overWindowLimit(redis, name, 3, windowMs)).toBeGreaterThanOrEqual(1);
  });
});

import { createRedis, Invalidation, subscriberFactory, type RedisClient } from "@mw/platform";
import { afterAll, describe, expect, it } from "vitest";
import { testQueuePrefix } from "../support/env.ts";
import { until } from "../support/wait.ts";

// Two processes' invalidation channels over the real Redis. A change's message can reach
// the other process after a request that the change's answer caused (sockets are read in
// no fixed order; a cluster relays messages between nodes after PUBLISH answered).
const url = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const prefix = `${testQueuePrefix()}-inv`;
const clients: RedisClient[] = [];
const channels: Invalidation[] = [];

function openProcess(): Invalidation {
  const redis = createRedis(url);
  clients.push(redis);
  const invalidation = new Invalidation(redis, subscriberFactory(url, redis, "inv-test"), prefix);
  channels.push(invalidation);
  return invalidation;
}

afterAll(async () => {
  await Promise.all(channels.map((channel) => channel.close()));
  await Promise.all(clients.map((client) => client.quit()));
});

describe("invalidated caches across processes", () => {
  it("a change is seen by the next request even when its message has not been read yet", async () => {
    const other = openProcess();
    const cache = other.cache<string>("rows");
    await until(() => other.isLive(), () => "the subscription to go live");
    await cache.catchUp();
    cache.set("key-1", "cached", cache.stamp());
    await cache.catchUp();
    expect(cache.get("key-1")).toBe("cached");

    // The changing process has counted the change up; its message is still on the way.
    const redis = clients[0]!;
    await redis.incr(`${prefix}:invalidate:rows:version`);
    await cache.catchUp();
    expect(cache.get("key-1")).toBeUndefined();
  });

  it("publish clears every process's cache, its own at once", async () => {
    const [one, two] = [openProcess(), openProcess()];
    const [first, second] = [one.cache<string>("items"), two.cache<string>("items")];
    await until(() => one.isLive() && two.isLive(), () => "both subscriptions to go live");
    for (const cache of [first, second]) {
      await cache.catchUp();
      cache.set("sku", "known", cache.stamp());
    }
    await one.publish("items");
    expect(first.get("sku")).toBeUndefined();
    await second.catchUp();
    expect(second.get("sku")).toBeUndefined();
  });
});

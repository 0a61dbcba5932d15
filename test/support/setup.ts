import { beforeAll } from "vitest";
import { testEnv } from "./env.ts";

Object.assign(process.env, testEnv());

// Test files of one slot share its queue prefix, one after another: a job an
// earlier file left waiting or delayed (a retry with backoff) would otherwise
// run in the middle of this file, under this file's workers and in its logs.
// Imported here rather than at the top, so a file's vi.mock (of node:crypto,
// say) still applies to the platform it imports.
beforeAll(async () => {
  const { createRedis, unlinkMatching } = await import("@mw/platform");
  const redis = createRedis(process.env.REDIS_URL!);
  try {
    await unlinkMatching(redis, `${process.env.QUEUE_PREFIX}:*`);
  } finally {
    await redis.quit();
  }
});

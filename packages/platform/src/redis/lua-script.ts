import { createHash } from "node:crypto";
import type { RedisClient } from "./redis.ts";

/**
 * A Lua script run by its SHA (EVALSHA), sent in full only when the server
 * does not have it yet (NOSCRIPT: a restart, SCRIPT FLUSH, a failover to a
 * replica that never saw it, a cluster node other than the one that ran it
 * before). Both go to the node of the script's first key. EVAL would send
 * and hash the whole text on every call, which on a per-job path costs the
 * worker and Redis more than the script's work.
 */
export class LuaScript {
  readonly sha: string;

  constructor(
    private readonly source: string,
    private readonly numberOfKeys: number,
  ) {
    this.sha = createHash("sha1").update(source).digest("hex");
  }

  async run(redis: RedisClient, ...keysAndArgs: (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, this.numberOfKeys, ...keysAndArgs);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return redis.eval(this.source, this.numberOfKeys, ...keysAndArgs);
    }
  }
}

import type { RedisClient } from "./redis.ts";
import type { Logger } from "./logger.ts";
import { describeRedisTarget, parseRedisUrl } from "./redis-url.ts";

const CONNECTION_ERRORS = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);

/** True for errors that say Redis is out of reach rather than that a command failed. */
export function isRedisConnectionError(error: unknown): boolean {
  const { code, message } = error as { code?: string; message?: string };
  return (code !== undefined && CONNECTION_ERRORS.has(code)) || /Connection is closed|connect ETIMEDOUT|Stream isn't writeable/.test(message ?? "");
}

/**
 * Every Redis connection of a process (ours and BullMQ's) reports each failed
 * reconnect, several times a second while Redis is away. An outage is one
 * warning when it starts and one line when Redis answers again; /readyz
 * carries the state in between.
 */
export class RedisOutage {
  private down = false;

  constructor(
    private readonly logger: Logger,
    private readonly redisUrl: string,
  ) {}

  /** Follows a connection: its errors start an outage, its `ready` ends one. */
  watch(redis: RedisClient): void {
    redis.on("error", (error) => this.explains(error) || this.logger.error("redis error", { error: error.message }));
    redis.on("ready", () => this.recovered());
  }

  /** Answers whether the error belongs to an outage (logged once, nothing more to say). */
  explains(error: unknown): boolean {
    if (!isRedisConnectionError(error)) return false;
    if (!this.down) {
      this.down = true;
      this.logger.warn("redis unreachable: jobs wait and /readyz answers 503 until it is back", {
        redis: describeRedisTarget(parseRedisUrl(this.redisUrl)),
        error: (error as Error).message,
      });
    }
    return true;
  }

  private recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.logger.warn("redis reachable again");
  }
}

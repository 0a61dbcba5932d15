import { Redis } from "ioredis";

/**
 * `blocking` connections (BullMQ workers) must never give up on a command:
 * BullMQ requires maxRetriesPerRequest null for them. Request-path connections
 * give up after two reconnection attempts, so /readyz and the API answer
 * rather than hang while Redis is down. `autoPipelining` batches the commands
 * of one event-loop turn into one write: only for plain commands on hot
 * request paths, never for BullMQ's connections (reported to lose job data).
 */
export function createRedis(url: string, options: { blocking?: boolean; name?: string; autoPipelining?: boolean } = {}): Redis {
  return new Redis(url, {
    connectionName: options.name,
    maxRetriesPerRequest: options.blocking ? null : 2,
    connectTimeout: 5000,
    enableAutoPipelining: options.autoPipelining ?? false,
  });
}

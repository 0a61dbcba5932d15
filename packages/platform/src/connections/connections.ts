import type { RedisClient } from "../redis/redis.ts";
import type { Config } from "../config/config.ts";
import { createSqlPool, poolConfig, prismaOver, SharedPoolAdapterFactory, type SqlPool } from "../database/db.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { createLogger, type Logger } from "../logging/logger.ts";
import { jobRetentionOf } from "../queues/options.ts";
import { Queues } from "../queues/queues.ts";
import { Invalidation } from "../redis/invalidation.ts";
import { createRedis } from "../redis/redis.ts";
import { RedisOutage } from "../redis/redis-outage.ts";
import { createReplicaPrisma, type ReplicaState } from "../database/replica.ts";
import { RedisCallerWrites } from "../database/caller-writes.ts";
import { subscriberFactory } from "../redis/redis-subscriber.ts";
import { createStorage, type ObjectStorage } from "../storage/index.ts";

/** What every process (API, worker, CLI) talks to, opened once and closed together. */
export interface Connections {
  config: Config;
  logger: Logger;
  prisma: PrismaClient;
  /**
   * The client of reads that tolerate lag (reports, CSV exports, the order list and stats, order-volume
   * tests, the dashboard summary): a domain read takes `replica` to say so. It is DATABASE_REPLICA_URL's,
   * falling back to the primary while that is unreachable, and simply `prisma` when no replica is set.
   */
  replica: PrismaClient;
  /** The replica's reachability and lag, for /readyz and /metrics; undefined when no replica is set. */
  replicaState?: ReplicaState;
  /** Callers' last writes, so their reads after them see them (the API records them per request); undefined when no replica is set. */
  callerWrites?: RedisCallerWrites;
  /** Driver pool for the few hot paths that createSqlPool names; everything else goes through `prisma`. */
  sql: SqlPool;
  redis: RedisClient;
  /** Auto-pipelined connection for request-path counters and caches (rate limits, the urgency cache); never for BullMQ. */
  hotRedis: RedisClient;
  /** One warning per Redis outage for every connection of this process. */
  redisOutage: RedisOutage;
  queues: Queues;
  /** Process-local caches that other processes clear through Redis (revoked keys, deleted items). */
  invalidation: Invalidation;
  /** Images and report files (local directory or S3). */
  storage: ObjectStorage;
  close(): Promise<void>;
}

export function openConnections(config: Config, name: string, options: { logger?: Logger } = {}): Connections {
  const logger = options.logger ?? createLogger(name, config);
  const pools = { connectionLimit: config.DB_POOL_SIZE, acquireTimeoutMs: config.DB_ACQUIRE_TIMEOUT_MS, queryTimeoutMs: config.DB_QUERY_TIMEOUT_MS };
  const primary = new SharedPoolAdapterFactory(poolConfig(config.DATABASE_URL, pools));
  const prisma = prismaOver(primary, pools);
  const { client: replica, state: replicaState } = config.DATABASE_REPLICA_URL
    ? createReplicaPrisma(config.DATABASE_REPLICA_URL, primary, logger, { ...pools, maxLagSeconds: config.REPLICA_MAX_LAG_SECONDS, readWaitMs: config.REPLICA_READ_WAIT_MS })
    : { client: prisma, state: undefined };
  const sql = createSqlPool(config.DATABASE_URL, pools);
  const redis = createRedis(config.REDIS_URL, { name: `mw-${name}` });
  const redisOutage = new RedisOutage(logger, config.REDIS_URL);
  redisOutage.watch(redis);
  // Opened on first use: only the API's hot paths take it.
  let hot: RedisClient | undefined;
  const hotRedis = () => {
    if (!hot) {
      hot = createRedis(config.REDIS_URL, { name: `mw-${name}-hot`, autoPipelining: true });
      redisOutage.watch(hot);
    }
    return hot;
  };
  const queues = new Queues(redis, config.QUEUE_PREFIX, {
    replication: { replicas: config.REDIS_WAIT_REPLICAS, timeoutMs: config.REDIS_WAIT_TIMEOUT_MS },
    jobRetention: jobRetentionOf(config),
  });
  const openSubscriber = subscriberFactory(config.REDIS_URL, redis, `mw-${name}-sub`);
  const invalidation = new Invalidation(
    redis,
    () => {
      const subscriber = openSubscriber();
      redisOutage.watch(subscriber);
      return subscriber;
    },
    config.QUEUE_PREFIX,
  );
  const storage = createStorage(config);
  // Past REPLICA_MAX_LAG_SECONDS reads leave the replica anyway; the margin covers the lag's one-second sampling.
  const callerWrites = replicaState ? new RedisCallerWrites(redis, config.QUEUE_PREFIX, prisma, (config.REPLICA_MAX_LAG_SECONDS + 5) * 1000) : undefined;
  if (callerWrites) replicaState?.useCallerWrites(callerWrites);
  return {
    config,
    logger,
    prisma,
    replica,
    replicaState,
    callerWrites,
    sql,
    redis,
    get hotRedis() {
      return hotRedis();
    },
    redisOutage,
    queues,
    invalidation,
    storage,
    async close() {
      redisOutage.stop();
      await queues.close();
      await invalidation.close();
      storage.close();
      replicaState?.close();
      if (replica !== prisma) await replica.$disconnect();
      await prisma.$disconnect();
      await sql.end();
      await redis.quit().catch(() => redis.disconnect());
      await hot?.quit().catch(() => hot?.disconnect());
    },
  };
}

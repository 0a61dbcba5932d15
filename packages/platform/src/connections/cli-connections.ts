import type { Config } from "../config/config.ts";
import type { Connections } from "./connections.ts";
import { checkServices, exitOnProblems } from "./preflight.ts";
import { createPrisma } from "../database/db.ts";
import { createLogger, type Logger } from "../logging/logger.ts";
import { jobRetentionOf } from "../queues/options.ts";
import { Queues } from "../queues/queues.ts";
import { createRedis, type RedisClient } from "../redis/redis.ts";
import { pairingOrExit } from "./pairing.ts";

/** What a `pnpm cli` command may use: the configuration, the database, a logger, and the queues (read by the `*:show` commands). */
export type CliConnections = Pick<Connections, "config" | "prisma" | "logger" | "queues">;

/**
 * The connections of one `pnpm cli` run: a small database pool (one command,
 * one operator), and a logger and Redis opened only when a command uses them,
 * so a command that does not leaves no log file behind. First, the check of
 * `pnpm start`: an unusable database or Redis (several commands queue jobs)
 * stops the run with one line naming the setting, and its exit code, rather
 * than a driver's error or a wait on reconnects.
 */
export async function openCliConnections(config: Config): Promise<CliConnections & { close(): Promise<void> }> {
  exitOnProblems(...(await checkServices(config, { database: true })));
  const prisma = createPrisma(config.DATABASE_URL, { connectionLimit: 2 });
  let logger: Logger | undefined;
  let redis: RedisClient | undefined;
  let queues: Queues | undefined;
  return {
    config,
    prisma,
    get logger() {
      return (logger ??= createLogger("cli", config));
    },
    get queues() {
      redis ??= createRedis(config.REDIS_URL, { name: "mw-cli" });
      // A command adds jobs only once the prefix is this database's (pairing.ts), as the API and worker start.
      return (queues ??= new Queues(redis, config.QUEUE_PREFIX, { jobRetention: jobRetentionOf(config), beforeFirstAdd: () => pairingOrExit(config) }));
    },
    async close() {
      logger?.close();
      await queues?.close();
      await redis?.quit().catch(() => redis?.disconnect());
      await prisma.$disconnect();
    },
  };
}

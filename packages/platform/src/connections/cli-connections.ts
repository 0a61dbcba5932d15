import type { Config } from "../config/config.ts";
import type { Connections } from "./connections.ts";
import { checkDatabase, exitOnProblems } from "./database-check.ts";
import { createPrisma } from "../database/db.ts";
import { jobRetentionOf } from "../queues/options.ts";
import type { Queues } from "../queues/queues.ts";
import type { RedisClient } from "../redis/redis.ts";

/** What every `pnpm cli` command may use: the configuration and the database. */
export type CliConnections = Pick<Connections, "config" | "prisma">;

/** What a command that adds or reads jobs uses besides: the queues (on their own Redis connection). */
export type CliQueueConnections = CliConnections & Pick<Connections, "queues">;

type Closable<T> = T & { close(): Promise<void> };

/**
 * The connections of one `pnpm cli` run: a small database pool (one command,
 * one operator), and, for a command that uses the queues, Redis opened when it
 * first reaches them. First, the check of `pnpm start`: an unusable database,
 * or Redis for a command that uses the queues, stops the run with one line
 * naming the setting, and its exit code, rather than a driver's error or a wait
 * on reconnects. Redis's client, BullMQ and the pairing check are imported only
 * for such a command, so one that needs the database alone starts without them.
 */
/**
 * What a command needs opened: the queues, and whether its statements may run for minutes (a rebuild
 * over every order), past DB_QUERY_TIMEOUT_MS, which bounds every other command's as the API's.
 */
interface CliUse {
  queues: boolean;
  longStatements?: boolean;
}

/** A maintenance statement's bound: a rebuild over ten million orders' grams takes tens of minutes here. */
const LONG_STATEMENT_MS = 6 * 3600_000;

function openPrisma(config: Config, use: CliUse) {
  return createPrisma(config.DATABASE_URL, {
    connectionLimit: 2,
    acquireTimeoutMs: config.DB_ACQUIRE_TIMEOUT_MS,
    queryTimeoutMs: use.longStatements ? LONG_STATEMENT_MS : config.DB_QUERY_TIMEOUT_MS,
  });
}

export async function openCliConnections(config: Config, use: CliUse & { queues: true }): Promise<Closable<CliQueueConnections>>;
export async function openCliConnections(config: Config, use?: CliUse): Promise<Closable<CliConnections & Partial<CliQueueConnections>>>;
export async function openCliConnections(config: Config, use: CliUse = { queues: false }): Promise<Closable<CliConnections & Partial<CliQueueConnections>>> {
  if (!use.queues) {
    exitOnProblems(await checkDatabase(config.DATABASE_URL, { database: true }));
    const prisma = openPrisma(config, use);
    return { config, prisma, close: () => prisma.$disconnect() };
  }
  const [{ checkServices }, { pairingOrExit }, { createRedis }, { Queues }] = await Promise.all([
    import("./preflight.ts"),
    import("./pairing.ts"),
    import("../redis/redis.ts"),
    import("../queues/queues.ts"),
  ]);
  exitOnProblems(...(await checkServices(config, { database: true })));
  const prisma = openPrisma(config, use);
  let redis: RedisClient | undefined;
  let queues: Queues | undefined;
  return {
    config,
    prisma,
    get queues() {
      redis ??= createRedis(config.REDIS_URL, { name: "mw-cli" });
      // A command adds jobs only once the prefix is this database's (pairing.ts), as the API and worker start.
      return (queues ??= new Queues(redis, config.QUEUE_PREFIX, { jobRetention: jobRetentionOf(config), beforeFirstAdd: () => pairingOrExit(config) }));
    },
    async close() {
      await queues?.close();
      await redis?.quit().catch(() => redis?.disconnect());
      await prisma.$disconnect();
    },
  };
}

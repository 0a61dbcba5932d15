import type { Config } from "./config.ts";
import type { Connections } from "./connections.ts";
import { createPrisma } from "./db.ts";
import { createLogger, type Logger } from "./logger.ts";

/** What a `pnpm cli` command may use: the configuration, the database and a logger (no Redis, no queues). */
export type CliConnections = Pick<Connections, "config" | "prisma" | "logger">;

/**
 * The connections of one `pnpm cli` run: a small database pool (one command,
 * one operator), and a logger opened only when a command logs, so a command
 * that does not leaves no log file behind.
 */
export function openCliConnections(config: Config): CliConnections & { close(): Promise<void> } {
  const prisma = createPrisma(config.DATABASE_URL, { connectionLimit: 2 });
  let logger: Logger | undefined;
  return {
    config,
    prisma,
    get logger() {
      return (logger ??= createLogger("cli", config));
    },
    async close() {
      logger?.close();
      await prisma.$disconnect();
    },
  };
}

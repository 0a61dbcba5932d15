import mariadb from "mariadb";
import type { Config } from "../config/config.ts";
import { AppError } from "../core/errors.ts";
import { connectionConfig } from "./db.ts";

/** A database as operators name it: `"mw" at 127.0.0.1:3306`, never its user or password. */
export function describeDatabase(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  return `"${decodeURIComponent(url.pathname.slice(1))}" at ${url.hostname}:${url.port || 3306}`;
}

/**
 * The database's identity, made once by the migration that creates database_identity: the same
 * through a proxy, another host name or a failover to its replica, another for every other database.
 */
export async function readDatabaseIdentity(databaseUrl: string): Promise<string> {
  const conn = await mariadb.createConnection({ ...connectionConfig(databaseUrl), connectTimeout: 5_000 });
  try {
    const [row] = (await conn.query("SELECT identity FROM database_identity WHERE id = 1")) as { identity: string }[];
    if (!row) throw new Error(`database ${describeDatabase(databaseUrl)} has no row in database_identity: run \`pnpm db:migrate\``);
    return row.identity;
  } finally {
    await conn.end().catch(() => conn.destroy());
  }
}

/**
 * A job's row that is not in this database. Retried like any failure rather than failed for good at
 * the first look: the job may have been queued by a process on another database sharing the queue
 * prefix (a mistake that process refuses at start, docs/operations.md), and the reason names the
 * database looked in, so an operator reading it sees which one.
 */
export function missingRow(what: string, config: Pick<Config, "DATABASE_URL">, code: string): AppError {
  return new AppError(500, code, `${what} does not exist in the database ${describeDatabase(config.DATABASE_URL)}`);
}

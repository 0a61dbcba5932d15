import { PrismaMariaDb } from "@prisma/adapter-mariadb";
import mariadb from "mariadb";
import { Prisma, PrismaClient } from "../generated/prisma/client.ts";

export type { PrismaClient } from "../generated/prisma/client.ts";
export { Prisma } from "../generated/prisma/client.ts";

/** A Prisma client over the MariaDB driver adapter (MySQL 8 and MariaDB both speak it). */
export function createPrisma(databaseUrl: string, options: { connectionLimit?: number } = {}): PrismaClient {
  const url = new URL(databaseUrl);
  url.searchParams.set("connectionLimit", String(options.connectionLimit ?? 10));
  // DATETIME columns hold UTC; the driver must not shift them by the server's zone.
  url.searchParams.set("timezone", "Z");
  return new PrismaClient({ adapter: new PrismaMariaDb(url.toString()) });
}

/**
 * True when a write failed on a unique index: MySQL error 1062 from the driver
 * pool, P2002 from Prisma model queries, P2010 carrying the driver's kind from raw ones.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof mariadb.SqlError) return error.errno === 1062;
  if (!(error instanceof Prisma.PrismaClientKnownRequestError)) return false;
  if (error.code === "P2002") return true;
  const cause = (error.meta as { driverAdapterError?: { cause?: { kind?: string } } } | undefined)?.driverAdapterError?.cause;
  return error.code === "P2010" && cause?.kind === "UniqueConstraintViolation";
}

/**
 * A plain driver pool for the few hot write paths where Prisma's per-query
 * overhead is the bottleneck (order intake: docs/decisions.md). Everything
 * else goes through Prisma.
 */
export function createSqlPool(databaseUrl: string, options: { connectionLimit?: number; lockWaitSeconds?: number } = {}): mariadb.Pool {
  const url = new URL(databaseUrl);
  return mariadb.createPool({
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
    connectionLimit: options.connectionLimit ?? 10,
    // A request that waits on a row lock longer than this fails (and a grouped batch is retried) instead of hanging for InnoDB's 50 s default.
    initSql: `SET SESSION innodb_lock_wait_timeout = ${options.lockWaitSeconds ?? 10}`,
    timezone: "Z",
    bigIntAsNumber: true,
    insertIdAsNumber: true,
  });
}

export type SqlPool = mariadb.Pool;

/** Runs `work` in one transaction on one pooled connection: committed if it returns, rolled back if it throws. */
export async function withTransaction<T>(sql: SqlPool, work: (conn: mariadb.PoolConnection) => Promise<T>): Promise<T> {
  const conn = await sql.getConnection();
  try {
    await conn.beginTransaction();
    try {
      const result = await work(conn);
      await conn.commit();
      return result;
    } catch (error) {
      await conn.rollback().catch(() => {});
      throw error;
    }
  } finally {
    await conn.release();
  }
}

import type { SqlPool } from "./db.ts";

/**
 * One statement on the driver pool, text protocol: a single round trip,
 * where a Prisma call costs a PREPARE, an EXECUTE and a CLOSE and several
 * times the CPU (docs/decisions.md, "Dispute pipeline throughput").
 * Parameters are escaped by the driver.
 */
export async function poolQuery<T>(deps: { sql: SqlPool }, sql: string, params: unknown[]): Promise<T> {
  const conn = await deps.sql.getConnection();
  try {
    return (await conn.query(sql, params)) as T;
  } finally {
    await conn.release();
  }
}

/** One statement and its parameters, to be sent with others. */
export type Statement = [sql: string, params: unknown[]];

/**
 * Several writes as one transaction in one round trip (a multi-statement
 * query: the driver pool allows them, values still go through placeholders).
 * The server stops at the first failing statement, before the COMMIT, and the
 * transaction is rolled back before the connection goes back to the pool.
 */
export async function writeTogether(deps: { sql: SqlPool }, statements: Statement[]): Promise<void> {
  const conn = await deps.sql.getConnection();
  try {
    await conn.query(["START TRANSACTION", ...statements.map(([sql]) => sql), "COMMIT"].join(";\n"), statements.flatMap(([, params]) => params));
  } catch (error) {
    await conn.rollback().catch(() => {});
    throw error;
  } finally {
    await conn.release();
  }
}

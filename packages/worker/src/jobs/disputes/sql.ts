import type { JobContext } from "../../runtime/processor.ts";

/**
 * One statement on the driver pool, text protocol: a single round trip,
 * where a Prisma call costs a PREPARE, an EXECUTE and a CLOSE and several
 * times the CPU (docs/decisions.md, "Dispute pipeline throughput").
 * Parameters are escaped by the driver.
 */
export async function query<T>(ctx: Pick<JobContext, "sql">, sql: string, params: unknown[]): Promise<T> {
  const conn = await ctx.sql.getConnection();
  try {
    return (await conn.query(sql, params)) as T;
  } finally {
    await conn.release();
  }
}

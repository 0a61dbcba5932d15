import mariadb from "mariadb";
import { Batcher, type BatchItem, type GroupOptions } from "../core/batcher.ts";
import type { SqlPool } from "./db.ts";

type Params = unknown[];
type Row = BatchItem<Params, number>;

/** Deadlock (1213: InnoDB rolled the transaction back) and lock-wait timeout (1205: the statement): the batch is rolled back and written again. */
function abortedTransaction(error: unknown): boolean {
  return error instanceof mariadb.SqlError && (error.errno === 1213 || error.errno === 1205);
}

/** A statement the server refused (a duplicate key, a value too long), the connection still usable: the other rows can be written without it. */
function refusedStatement(error: unknown): boolean {
  return error instanceof mariadb.SqlError && !error.fatal;
}

const ATTEMPTS = 3;

/**
 * Most characters of parameters in one transaction's query. The query is one
 * packet the server refuses past max_allowed_packet (16 MB by default); a
 * character takes at most three bytes in UTF-8, so 4 million stay under 12 MB.
 */
const MAX_CHARS_PER_QUERY = 4_000_000;

function charsOf(params: Params): number {
  let chars = 0;
  for (const value of params) if (typeof value === "string") chars += value.length;
  return chars;
}

/** The rows of a batch in runs that each fit in one query (a row bigger than that alone). */
function chunksOf(batch: Row[]): Row[][] {
  const chunks: Row[][] = [];
  let current: Row[] = [];
  let chars = 0;
  for (const row of batch) {
    const size = charsOf(row.item);
    if (current.length > 0 && chars + size > MAX_CHARS_PER_QUERY) {
      chunks.push(current);
      current = [];
      chars = 0;
    }
    current.push(row);
    chars += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * Group commit for one hot single-row INSERT. Under load, rows that arrive
 * while earlier batches are being written go together in the next batch: one
 * transaction sent as one multi-statement query (`START TRANSACTION; INSERT
 * ...; INSERT ...; COMMIT`), so N concurrent requests cost one commit (one log
 * flush), one round trip and one socket write instead of N of each. Each
 * caller still gets its own insert id (every INSERT answers its own) or its
 * own error: when the server refuses one row (a duplicate key), it stops
 * there, the transaction is rolled back, and the rows are written again one
 * by one, so only that row fails. A caller's promise settles only after the
 * commit, so "resolved" means durable. The converse does not hold: when the
 * connection is cut after the query left, every caller of the batch is
 * rejected, yet the server runs the query to its end and may commit it; a
 * caller's retry then meets its own row as a duplicate (test/platform/group-insert.test.ts).
 */
export class GroupInsert {
  private readonly batcher: Batcher<Params, number>;

  constructor(
    private readonly pool: SqlPool,
    private readonly sql: string,
    options: GroupOptions,
  ) {
    this.batcher = new Batcher(options, (batch) => this.write(batch));
  }

  /** Inserts one row; answers its auto-increment id. */
  insert(params: Params): Promise<number> {
    return this.batcher.add(params);
  }

  private async write(batch: Row[]): Promise<void> {
    let conn: mariadb.PoolConnection;
    try {
      conn = await this.pool.getConnection();
    } catch (error) {
      for (const row of batch) row.reject(error);
      return;
    }
    try {
      for (const chunk of chunksOf(batch)) {
        // Alone, autocommit is one statement; a transaction would add two.
        if (chunk.length === 1) await this.writeAlone(conn, chunk);
        else await this.writeTogether(conn, chunk);
      }
    } finally {
      conn.release();
    }
  }

  /** Each row as its own autocommit INSERT, pipelined on the connection: a row the server refuses fails alone. */
  private async writeAlone(conn: mariadb.PoolConnection, rows: Row[]): Promise<void> {
    await Promise.all(rows.map((row) => conn.execute<{ insertId: number }>(this.sql, row.item).then((result) => row.resolve(result.insertId), row.reject)));
  }

  private async writeTogether(conn: mariadb.PoolConnection, rows: Row[]): Promise<void> {
    const query = ["START TRANSACTION", ...rows.map(() => this.sql), "COMMIT"].join(";\n");
    const params = rows.flatMap((row) => row.item);
    for (let attempt = 1; ; attempt += 1) {
      let results: { insertId: number }[];
      try {
        results = await conn.query<{ insertId: number }[]>(query, params);
      } catch (error) {
        // The server stops at the failing statement, inside the transaction: undo what went before it.
        await conn.rollback().catch(() => {});
        if (abortedTransaction(error) && attempt < ATTEMPTS) continue;
        if (refusedStatement(error) && !abortedTransaction(error)) await this.writeAlone(conn, rows);
        else for (const row of rows) row.reject(error);
        return;
      }
      // results[0] answers START TRANSACTION, then one per INSERT.
      rows.forEach((row, index) => row.resolve(results[index + 1]!.insertId));
      return;
    }
  }
}

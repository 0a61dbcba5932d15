import mariadb from "mariadb";
import { Batcher, type BatchItem, type GroupOptions } from "./batcher.ts";
import type { SqlPool } from "./db.ts";

type Params = unknown[];

/** Deadlock (1213) and lock-wait timeout (1205): InnoDB rolled back the whole transaction, so the batch is written again. */
function abortedTransaction(error: unknown): boolean {
  return error instanceof mariadb.SqlError && (error.errno === 1213 || error.errno === 1205);
}

const ATTEMPTS = 3;

/**
 * Group commit for one hot single-row INSERT. Under load, rows that arrive
 * while earlier batches are being written go together in the next batch: one
 * transaction, statements pipelined on one connection, so N concurrent
 * requests cost one commit (one log flush) and about one round trip instead of
 * N. Each caller still gets its own insert id or its own error: a duplicate key
 * fails only its own statement, InnoDB keeps the rest of the transaction. A
 * caller's promise settles only after the commit, so "resolved" means durable.
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

  private async write(batch: BatchItem<Params, number>[]): Promise<void> {
    let conn: mariadb.PoolConnection;
    try {
      conn = await this.pool.getConnection();
    } catch (error) {
      for (const row of batch) row.reject(error);
      return;
    }
    try {
      if (batch.length === 1) {
        // Alone, autocommit is one round trip; a transaction would add two.
        const [row] = batch as [BatchItem<Params, number>];
        await conn.execute<{ insertId: number }>(this.sql, row.item).then((result) => row.resolve(result.insertId), row.reject);
        return;
      }
      await this.writeTogether(conn, batch);
    } finally {
      conn.release();
    }
  }

  private async writeTogether(conn: mariadb.PoolConnection, batch: BatchItem<Params, number>[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      let results: PromiseSettledResult<{ insertId: number }>[];
      try {
        // Not awaited one by one: the driver pipelines the statements on the connection.
        const begun = conn.beginTransaction();
        // Settled together, so a failed BEGIN never leaves the INSERTs' rejections unhandled.
        const inserts = Promise.allSettled(batch.map((row) => conn.execute<{ insertId: number }>(this.sql, row.item)));
        const [started] = await Promise.allSettled([begun]);
        results = await inserts;
        if (started!.status === "rejected") throw started!.reason;
        const aborted = results.find((result) => result.status === "rejected" && abortedTransaction(result.reason));
        if (aborted) throw (aborted as PromiseRejectedResult).reason;
        await conn.commit();
      } catch (error) {
        await conn.rollback().catch(() => {});
        if (abortedTransaction(error) && attempt < ATTEMPTS) continue;
        for (const row of batch) row.reject(error);
        return;
      }
      results.forEach((result, index) => {
        const row = batch[index]!;
        if (result.status === "fulfilled") row.resolve(result.value.insertId);
        else row.reject(result.reason);
      });
      return;
    }
  }
}

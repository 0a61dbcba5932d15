import mariadb from "mariadb";
import type { SqlPool } from "./db.ts";

type Params = unknown[];

interface Pending {
  params: Params;
  resolve(insertId: number): void;
  reject(error: unknown): void;
}

export interface GroupInsertOptions {
  /** Batches written at once; rows arriving while all are busy wait for the next one. */
  concurrency: number;
  /** Most rows in one transaction. */
  maxBatch: number;
}

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
  private queued: Pending[] = [];
  private writing = 0;

  constructor(
    private readonly pool: SqlPool,
    private readonly sql: string,
    private readonly options: GroupInsertOptions,
  ) {}

  /** Inserts one row; answers its auto-increment id. */
  insert(params: Params): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      this.queued.push({ params, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.writing < this.options.concurrency && this.queued.length > 0) {
      const batch = this.queued.splice(0, this.options.maxBatch);
      this.writing += 1;
      void this.write(batch).finally(() => {
        this.writing -= 1;
        this.drain();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
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
        const [row] = batch as [Pending];
        await conn.execute<{ insertId: number }>(this.sql, row.params).then((result) => row.resolve(result.insertId), row.reject);
        return;
      }
      await this.writeTogether(conn, batch);
    } finally {
      conn.release();
    }
  }

  private async writeTogether(conn: mariadb.PoolConnection, batch: Pending[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      let results: PromiseSettledResult<{ insertId: number }>[];
      try {
        // Not awaited one by one: the driver pipelines the statements on the connection.
        const begun = conn.beginTransaction();
        // Settled together, so a failed BEGIN never leaves the INSERTs' rejections unhandled.
        const inserts = Promise.allSettled(batch.map((row) => conn.execute<{ insertId: number }>(this.sql, row.params)));
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

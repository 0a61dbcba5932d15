import { createSqlPool, GroupInsert, isUniqueViolation, type SqlPool } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../support/env.ts";
import { TcpProxy } from "../support/tcp-proxy.ts";
import { until } from "../support/wait.ts";

// The group-commit writer behind the acquirer receiver, on a scratch table of the test database.
const TABLE = `group_insert_probe_${process.pid}`;
const INSERT = `INSERT INTO ${TABLE} (k) VALUES (?)`;
let pool: SqlPool;

async function query(sql: string, values?: unknown[]): Promise<unknown> {
  const conn = await pool.getConnection();
  try {
    return await conn.query(sql, values);
  } finally {
    await conn.release();
  }
}

beforeAll(async () => {
  // A short lock wait, so a blocked batch times out within the test.
  pool = createSqlPool(testDatabaseUrl(), { connectionLimit: 4, lockWaitSeconds: 1 });
  await query(`CREATE TABLE ${TABLE} (id INT AUTO_INCREMENT PRIMARY KEY, k VARCHAR(64) NOT NULL UNIQUE)`);
});
afterAll(async () => {
  await query(`DROP TABLE IF EXISTS ${TABLE}`);
  await pool.end();
});

async function idsOf(keys: string[]): Promise<Map<string, number>> {
  const rows = (await query(`SELECT id, k FROM ${TABLE} WHERE k IN (?)`, [keys])) as { id: number; k: string }[];
  return new Map(rows.map((row) => [row.k, row.id]));
}

describe("GroupInsert", () => {
  it("writes rows that arrive together in one batch, and a duplicate fails only its own row", async () => {
    await query(`INSERT INTO ${TABLE} (k) VALUES ('taken')`);
    const writer = new GroupInsert(pool, INSERT, { concurrency: 1, maxBatch: 100 });
    // The first row goes alone; the rest queue behind it and go together.
    const keys = ["first", "a", "taken", "b", "c"];
    const results = await Promise.allSettled(keys.map((k) => writer.insert([k])));
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "rejected", "fulfilled", "fulfilled"]);
    expect(isUniqueViolation((results[2] as PromiseRejectedResult).reason)).toBe(true);
    const ids = await idsOf(["first", "a", "b", "c"]);
    expect(results.filter((r) => r.status === "fulfilled").map((r) => r.value)).toEqual(["first", "a", "b", "c"].map((k) => ids.get(k)));
  });

  it("writes a batch again when InnoDB aborted it (lock wait timeout), so no caller sees the abort", async () => {
    const blocker = await pool.getConnection();
    await blocker.beginTransaction();
    await blocker.query(`INSERT INTO ${TABLE} (k) VALUES ('contended')`);
    const writer = new GroupInsert(pool, INSERT, { concurrency: 1, maxBatch: 100 });
    const pending = Promise.allSettled(["lead", "x1", "contended", "x2"].map((k) => writer.insert([k])));
    // The batch waits on the blocker's row, times out after 1 s, and is retried; the blocker gives way meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await blocker.rollback();
    blocker.release();
    const results = await pending;
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    const ids = await idsOf(["lead", "x1", "contended", "x2"]);
    expect(results.map((r) => (r as PromiseFulfilledResult<number>).value)).toEqual(["lead", "x1", "contended", "x2"].map((k) => ids.get(k)));
  });

  it("a batch cut off mid-query leaves no caller told 'stored' for a row that is not, and redelivery stores each row once", async () => {
    // The writer reaches MariaDB through a proxy the test cuts while a batch waits on a row lock on the server.
    const database = new URL(testDatabaseUrl());
    const proxy = await new TcpProxy(Number(database.port || 3306), database.hostname).start();
    database.host = `127.0.0.1:${proxy.port}`;
    const cutPool = createSqlPool(database.toString(), { connectionLimit: 2, lockWaitSeconds: 20 });
    const blocker = await pool.getConnection();
    try {
      await blocker.beginTransaction();
      await blocker.query(`INSERT INTO ${TABLE} (k) VALUES ('cut-contended')`);
      const writer = new GroupInsert(cutPool, INSERT, { concurrency: 1, maxBatch: 100 });
      const keys = ["cut-lead", "cut-a", "cut-contended", "cut-b", "cut-c"];
      const told = new Map<string, number>();
      const first = Promise.allSettled(keys.map((k) => writer.insert([k]).then((id) => told.set(k, id))));
      // "cut-lead" goes alone and is acknowledged; the other four go together and wait on the blocker's row inside the server.
      await until(
        async () =>
          told.has("cut-lead") &&
          ((await query(`SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE INFO LIKE '%cut-contended%' AND ID <> CONNECTION_ID()`)) as { n: number }[])[0]!.n > 0,
        () => `"cut-lead" acknowledged (${told.has("cut-lead")}) and the batch after it waiting on the blocked row`,
      );
      proxy.set("cut");
      // The server may still finish the batch once the row is free (its client is gone by then): either way no caller was told.
      await blocker.rollback();
      const results = await first;
      expect(results.every((result) => result.status === "fulfilled" || !isUniqueViolation(result.reason))).toBe(true);
      expect([...told.keys()]).toEqual(["cut-lead"]);
      proxy.set("pass");
      // The acquirer delivers again what was not acknowledged: each row stored, none twice.
      const again = await Promise.allSettled(keys.filter((k) => !told.has(k)).map((k) => writer.insert([k]).then((id) => told.set(k, id))));
      expect(again.every((result) => result.status === "fulfilled" || isUniqueViolation(result.reason))).toBe(true);
      const stored = (await query(`SELECT id, k FROM ${TABLE} WHERE k LIKE 'cut-%'`)) as { id: number; k: string }[];
      expect(stored.map((row) => row.k).sort()).toEqual([...keys].sort());
      for (const row of stored) if (told.has(row.k)) expect(told.get(row.k)).toBe(row.id);
    } finally {
      blocker.release();
      await cutPool.end();
      await proxy.stop();
    }
  });
});

import { createPrisma, type PrismaClient } from "@mw/platform";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../support/env.ts";
import { until } from "../support/wait.ts";

// A transaction (order intake, a ticket signal) on a pool whose connections are all busy waits as a
// query would, DB_ACQUIRE_TIMEOUT_MS, and may run as long as a query may, DB_QUERY_TIMEOUT_MS.
// Prisma's own bounds (2 s to start, 5 s to run) answered 500 to callers the settings let wait.
let observer: PrismaClient;

beforeAll(() => {
  observer = createPrisma(testDatabaseUrl(), { connectionLimit: 1 });
});
afterAll(async () => {
  await observer.$disconnect();
});

/** Whether a `SELECT SLEEP(...)` tagged `tag` is running on the server now. */
async function sleeping(tag: string): Promise<boolean> {
  const rows = await observer.$queryRawUnsafe<unknown[]>("SELECT 1 FROM information_schema.PROCESSLIST WHERE INFO LIKE ? AND INFO NOT LIKE '%PROCESSLIST%'", `%${tag}%`);
  return rows.length > 0;
}

describe("interactive transactions", () => {
  it("wait for the pool's one busy connection up to the acquire timeout, past Prisma's 2 s", async () => {
    const prisma = createPrisma(testDatabaseUrl(), { connectionLimit: 1, acquireTimeoutMs: 30_000 });
    try {
      // A Prisma query runs when it is awaited or then'd.
      const busy = prisma.$queryRawUnsafe("SELECT SLEEP(3) AS busy_wait").then(() => undefined);
      await until(() => sleeping("busy_wait"), () => "the pool's connection to be busy");
      const answer = await prisma.$transaction((tx) => tx.$queryRawUnsafe<{ one: bigint | number }[]>("SELECT 1 AS one"));
      expect(Number(answer[0]!.one)).toBe(1);
      await busy;
    } finally {
      await prisma.$disconnect();
    }
  });

  it("run up to the query timeout, past Prisma's 5 s", async () => {
    const prisma = createPrisma(testDatabaseUrl(), { connectionLimit: 1, queryTimeoutMs: 30_000 });
    try {
      const answer = await prisma.$transaction(async (tx) => {
        await tx.$queryRawUnsafe("SELECT SLEEP(6) AS long_step");
        return tx.$queryRawUnsafe<{ one: bigint | number }[]>("SELECT 1 AS one");
      });
      expect(Number(answer[0]!.one)).toBe(1);
    } finally {
      await prisma.$disconnect();
    }
  });
});

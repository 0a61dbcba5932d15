import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkDatabase, checkRedis } from "@mw/platform";
import { describe, expect, it } from "vitest";
import { startLocalServices } from "../../scripts/services/local.ts";
import { closedPort } from "../support/api.ts";

describe("local services (pnpm services)", () => {
  it("starts MariaDB with the DATABASE_URL user and Redis from the installed binaries, and stops them", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "mw-services-"));
    const databaseUrl = `mysql://shop:s3cret%40x@127.0.0.1:${await closedPort()}/mw_local`;
    const redisUrl = `redis://127.0.0.1:${await closedPort()}`;
    try {
      const services = await startLocalServices({ databaseUrl, redisUrl, dataDir });
      try {
        expect(services.started).toHaveLength(2);
        expect(await checkDatabase(databaseUrl, { database: false })).toBeUndefined();
        expect(await checkRedis(redisUrl)).toBeUndefined();
        // Already answering: a second start leaves them alone.
        expect((await startLocalServices({ databaseUrl, redisUrl, dataDir })).started).toEqual([]);
      } finally {
        await services.stop();
      }
      expect((await checkDatabase(databaseUrl, { database: false }))?.line).toContain("connection refused");
      expect((await checkRedis(redisUrl))?.line).toContain("connection refused");
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it("leaves a URL that points at another machine alone", async () => {
    const services = await startLocalServices({ databaseUrl: "mysql://mw:mw@192.0.2.1:3306/mw", redisUrl: "redis://192.0.2.1:6379", dataDir: tmpdir() });
    expect(services.started).toEqual([]);
  });
});

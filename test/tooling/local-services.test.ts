import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { checkDatabase, checkRedis } from "@mw/platform";
import { afterAll, describe, expect, it } from "vitest";
import { dropDatabase, migrate } from "../../scripts/migrations/apply.ts";
import { connectAsAdministrator, provideDatabaseUser } from "../../scripts/services/database-user.ts";
import { startLocalServices } from "../../scripts/services/local.ts";
import { closedPort } from "../support/api.ts";
import { testBaseDatabaseUrl, testEnv } from "../support/env.ts";

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

  it("for pnpm start, starts nothing for a local URL on another port than the default: one line names the setting and the address", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "mw-services-"));
    const databasePort = await closedPort();
    const redisPort = await closedPort();
    try {
      // Whatever did start is stopped again, so a failure leaves no server behind.
      const outcome = (options: Parameters<typeof startLocalServices>[0]) =>
        startLocalServices(options).then(
          async (services) => (await services.stop(), services),
          (error: unknown) => error,
        );
      expect(await outcome({ databaseUrl: `mysql://shop:s3cret@127.0.0.1:${databasePort}/mw`, redisUrl: testEnv().REDIS_URL!, dataDir, onlyAtDefaultAddress: true })).toMatchObject({
        exitCode: 69,
        message: `DATABASE_URL: nothing answers at 127.0.0.1:${databasePort} (shop); pnpm start starts a local MariaDB only for the default address 127.0.0.1:3306`,
      });
      expect(await outcome({ databaseUrl: testBaseDatabaseUrl(), redisUrl: `redis://localhost:${redisPort}`, dataDir, onlyAtDefaultAddress: true })).toMatchObject({
        exitCode: 69,
        message: `REDIS_URL: nothing answers at localhost:${redisPort}; pnpm start starts a local Redis only for the default address localhost:6379`,
      });
      expect(await checkDatabase(`mysql://shop:s3cret@127.0.0.1:${databasePort}/mw`, { database: false })).toMatchObject({ nothingListens: true });
      expect(await checkRedis(`redis://localhost:${redisPort}`)).toMatchObject({ nothingListens: true });
      // The defaults, answering here, are used as they are.
      expect((await startLocalServices({ databaseUrl: testBaseDatabaseUrl(), redisUrl: testEnv().REDIS_URL!, dataDir, onlyAtDefaultAddress: true })).started).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  it("leaves a URL that points at another machine alone", async () => {
    const services = await startLocalServices({ databaseUrl: "mysql://mw:mw@192.0.2.1:3306/mw", redisUrl: "redis://192.0.2.1:6379", dataDir: tmpdir() });
    expect(services.started).toEqual([]);
  });
});

const server = new URL(testBaseDatabaseUrl());
const admin = await connectAsAdministrator(Number(server.port || 3306));
afterAll(async () => {
  await admin?.conn.end();
});

function urlFor(user: string, password: string, database = user): string {
  const url = new URL(server);
  url.username = user;
  url.password = encodeURIComponent(password);
  url.pathname = `/${database}`;
  return url.toString();
}

async function dropUser(user: string): Promise<void> {
  for (const host of ["localhost", "127.0.0.1", "::1"]) await admin!.conn.query("DROP USER IF EXISTS ?@?", [user, host]);
}

describe("a running MariaDB that refuses the DATABASE_URL user", () => {
  it("gets a command to run, and the SQL in a file only its owner reads, when no administrator is at hand", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "mw-services-"));
    const password = "not-on-the-terminal";
    try {
      const outcome = await provideDatabaseUser(urlFor(`mw_nobody_${process.pid}`, password), { dataDir, sockets: [] });
      const file = path.join(dataDir, "database-user.sql");
      expect(outcome).toEqual({ problem: expect.objectContaining({ exitCode: 78 }) });
      const line = (outcome as { problem: { line: string } }).problem.line;
      expect(line).toMatch(new RegExp(`^The database at 127\\.0\\.0\\.1:\\d+ refused user "mw_nobody_${process.pid}" \\(DATABASE_URL\\)`));
      expect(line).toContain(`< ${file}`);
      expect(line).not.toContain(password);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readFileSync(file, "utf8")).toContain(`CREATE USER IF NOT EXISTS 'mw_nobody_${process.pid}'@'127.0.0.1' IDENTIFIED BY '${password}';`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe.skipIf(!admin)("as the server's administrator over the local socket", () => {
    it("creates the user with its database and those named after it, says so, and is not needed twice", async () => {
      const user = `mw_new_${process.pid}`;
      const url = urlFor(user, "fresh'pass");
      const dataDir = mkdtempSync(path.join(tmpdir(), "mw-services-"));
      await dropUser(user);
      try {
        const services = await startLocalServices({ databaseUrl: url, redisUrl: testEnv().REDIS_URL!, dataDir });
        expect(services.started).toEqual([]);
        expect(services.prepared).toEqual([`created database user "${user}" with all privileges on ${user} and ${user}_* (as ${admin!.login} over ${admin!.socket})`]);
        expect(await checkDatabase(url, { database: false })).toBeUndefined();
        await migrate(url);
        await migrate(`${url}_demo`);
        expect(await checkDatabase(url, { database: true })).toBeUndefined();
        expect((await startLocalServices({ databaseUrl: url, redisUrl: testEnv().REDIS_URL!, dataDir })).prepared).toEqual([]);
      } finally {
        await dropDatabase(url).catch(() => {});
        await dropDatabase(`${url}_demo`).catch(() => {});
        await dropUser(user);
        rmSync(dataDir, { recursive: true, force: true });
      }
    }, 60_000);

    it("names a wrong password of a user that exists, and changes nothing", async () => {
      const mine = new URL(testBaseDatabaseUrl());
      const outcome = await provideDatabaseUser(urlFor(decodeURIComponent(mine.username), "not-the-password"), { dataDir: tmpdir() });
      expect(outcome).toEqual({
        problem: {
          line: `The database at 127.0.0.1:${mine.port || 3306} refused user "${decodeURIComponent(mine.username)}" (DATABASE_URL), which exists there: the password in DATABASE_URL is not its password. Fix DATABASE_URL.`,
          exitCode: 78,
          userRefused: true,
        },
      });
      expect(await checkDatabase(testBaseDatabaseUrl(), { database: false })).toBeUndefined();
    });
  });
});

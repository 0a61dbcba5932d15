import { PrismaMariaDb } from "@prisma/adapter-mariadb";
import type { SqlDriverAdapter, SqlDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import mariadb from "mariadb";
import { Prisma, PrismaClient } from "../generated/prisma/client.ts";

export type { PrismaClient } from "../generated/prisma/client.ts";
export { Prisma } from "../generated/prisma/client.ts";

/**
 * How a pool reaches the database and how long anything may wait on it. A
 * database that is down or stops answering must fail a request in bounded
 * time, never hold it open: waiting for a pooled connection gives up after
 * `acquireTimeoutMs`, a connection attempt after `connectTimeoutMs`, and a
 * socket silent for `queryTimeoutMs` (a hung query or server) is closed.
 */
export interface PoolSettings {
  connectionLimit?: number;
  acquireTimeoutMs?: number;
  connectTimeoutMs?: number;
  queryTimeoutMs?: number;
}

/** Where a database URL points and who connects, for one connection or a pool. */
export function connectionConfig(databaseUrl: string): mariadb.ConnectionConfig {
  const url = new URL(databaseUrl);
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
    // DATETIME columns hold UTC; the driver must not shift them by the server's zone.
    timezone: "Z",
  };
}

/** The bounds a pool and its transactions keep where the settings name none. */
const ACQUIRE_TIMEOUT_MS = 2000;
const QUERY_TIMEOUT_MS = 15_000;

export function poolConfig(databaseUrl: string, settings: PoolSettings): mariadb.PoolConfig {
  return {
    ...connectionConfig(databaseUrl),
    connectionLimit: settings.connectionLimit ?? 5,
    // Connections beyond one open on demand and close again after a minute unused, so
    // N processes hold what they use rather than N x connectionLimit. (The driver grows a
    // pool only while fewer than minimumIdle are idle, so 0 would never open one.)
    minimumIdle: 1,
    idleTimeout: 60,
    acquireTimeout: settings.acquireTimeoutMs ?? ACQUIRE_TIMEOUT_MS,
    connectTimeout: settings.connectTimeoutMs ?? Math.min(settings.acquireTimeoutMs ?? ACQUIRE_TIMEOUT_MS, 2000),
    socketTimeout: settings.queryTimeoutMs ?? QUERY_TIMEOUT_MS,
  };
}

/**
 * Prisma's MariaDB adapter over one pool that every adapter connected from
 * this factory shares: created by the first connect, ended with the last
 * adapter disposed. The primary's client and the replica client's fallback
 * (replica.ts) both connect from it, so lag-tolerant reads that fall back to
 * the primary add no connections to it.
 */
export class SharedPoolAdapterFactory implements SqlDriverAdapterFactory {
  readonly provider = "mysql";
  readonly adapterName = "@prisma/adapter-mariadb";
  private shared?: { pool: mariadb.Pool; factory: PrismaMariaDb; users: number };

  constructor(private readonly config: mariadb.PoolConfig) {}

  async connect(): Promise<SqlDriverAdapter> {
    if (!this.shared) {
      // What the adapter sets on a pool it creates itself: no server-side prepared statement cache.
      const pool = mariadb.createPool({ prepareCacheLength: 0, ...this.config });
      this.shared = { pool, factory: new PrismaMariaDb(pool), users: 0 };
    }
    const shared = this.shared;
    const adapter = await shared.factory.connect();
    shared.users += 1;
    return Object.assign(adapter, {
      dispose: async () => {
        shared.users -= 1;
        if (shared.users > 0) return;
        if (this.shared === shared) this.shared = undefined;
        await shared.pool.end();
      },
    });
  }
}

/**
 * A Prisma client over `adapter` whose interactive transactions keep the pool's bounds: one waits
 * for a connection as long as any query may (`acquireTimeoutMs`) and runs as long as a query may
 * (`queryTimeoutMs`), not Prisma's own 2 s and 5 s, which failed requests on a busy pool that the
 * settings allowed to wait.
 */
export function prismaOver(adapter: SqlDriverAdapterFactory, settings: PoolSettings): PrismaClient {
  return new PrismaClient({
    adapter,
    transactionOptions: { maxWait: settings.acquireTimeoutMs ?? ACQUIRE_TIMEOUT_MS, timeout: settings.queryTimeoutMs ?? QUERY_TIMEOUT_MS },
  });
}

/** A Prisma client over the MariaDB driver adapter (MySQL 8 and MariaDB both speak it). */
export function createPrisma(databaseUrl: string, settings: PoolSettings = {}): PrismaClient {
  return prismaOver(new SharedPoolAdapterFactory(poolConfig(databaseUrl, settings)), settings);
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

/** True when InnoDB chose this transaction as a deadlock victim or it hit a write conflict: running it again is the remedy. */
export function isDeadlock(error: unknown): boolean {
  if (error instanceof mariadb.SqlError) return error.errno === 1213;
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2034";
}

/** Runs a transaction, again (up to `attempts` times) when InnoDB rolled it back as a deadlock victim. */
export async function retryOnDeadlock<T>(transaction: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= attempts || !isDeadlock(error)) throw error;
    }
  }
}

/**
 * A plain driver pool for the few hot paths where Prisma's per-query overhead
 * is the bottleneck (docs/decisions.md): `storeOrder`, which writes both the
 * orders pushed to `POST /external/orders` and those the storefront order
 * import (`orders-import` job) brings in; the acquirer webhook receiver's
 * grouped audit-row insert (`receiveAcquirerWebhook`); and the dispute
 * pipeline's reads and its one-transaction write (`process-dispute` job).
 * Everything else goes through Prisma.
 */
export function createSqlPool(databaseUrl: string, settings: PoolSettings & { lockWaitSeconds?: number } = {}): SqlPool {
  let pool: mariadb.Pool | undefined;
  // Opened by the first query that needs it, as Prisma opens its own: a process that never
  // takes one of those hot paths holds no driver connection.
  const open = () =>
    (pool ??= mariadb.createPool({
      ...poolConfig(databaseUrl, settings),
      // A request that waits on a row lock longer than this fails (and a grouped batch is retried) instead of hanging for InnoDB's 50 s default.
      initSql: `SET SESSION innodb_lock_wait_timeout = ${settings.lockWaitSeconds ?? 10}`,
      bigIntAsNumber: true,
      insertIdAsNumber: true,
      // `storeOrder` and the dispute pipeline's write each send a whole transaction as one
      // query. Values still go through placeholders, escaped by the driver, never into the text.
      multipleStatements: true,
    }));
  return {
    getConnection: () => open().getConnection(),
    end: async () => pool?.end(),
  };
}

/** The driver pool as the hot paths use it. */
export interface SqlPool {
  getConnection(): Promise<mariadb.PoolConnection>;
  end(): Promise<void>;
}

/** True for any failure of the database or of the way to it: driver errors, pool timeouts, Prisma's request and connection errors. */
export function isDatabaseError(error: unknown): boolean {
  return (
    error instanceof mariadb.SqlError ||
    error instanceof Prisma.PrismaClientKnownRequestError ||
    error instanceof Prisma.PrismaClientUnknownRequestError ||
    error instanceof Prisma.PrismaClientInitializationError ||
    error instanceof Prisma.PrismaClientRustPanicError ||
    (error instanceof Error && error.name === "DriverAdapterError")
  );
}

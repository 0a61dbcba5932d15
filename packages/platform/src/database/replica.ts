import { PrismaMariaDb } from "@prisma/adapter-mariadb";
import type { IsolationLevel, SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery } from "@prisma/driver-adapter-utils";
import mariadb from "mariadb";
import { PrismaClient } from "../generated/prisma/client.ts";
import { connectionConfig, poolConfig, type PoolSettings } from "./db.ts";
import type { Logger } from "../logging/logger.ts";

/** How long a probe of the replica waits for a connection: the probe decides whether a read falls back, so it must not hang. */
const PROBE_CONNECT_TIMEOUT_MS = 2000;

function firstLine(error: unknown): string {
  return (error as Error).message.split("\n")[0]!;
}

/**
 * What this process knows of the read replica (DATABASE_REPLICA_URL). The
 * first failing replica read is checked with a probe, a fresh connection and
 * `SELECT 1`: if the replica answers, the error was the query's own; if not,
 * an outage starts, is logged once, lag-tolerant reads go to the primary,
 * and the probe repeats until the replica answers again (logged once more).
 */
export class ReplicaState {
  private unreachable = false;
  private probing?: Promise<string | undefined>;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly replicaUrl: string,
    private readonly logger: Logger,
    private readonly probeEveryMs = 2000,
  ) {}

  /** True while an outage is known: reads skip the replica. */
  get down(): boolean {
    return this.unreachable;
  }

  /** Connects once and runs `SELECT 1`; rejects with a one-line reason when the replica does not answer. */
  async probe(): Promise<void> {
    let conn: mariadb.Connection | undefined;
    try {
      conn = await mariadb.createConnection({ ...connectionConfig(this.replicaUrl), connectTimeout: PROBE_CONNECT_TIMEOUT_MS, socketTimeout: PROBE_CONNECT_TIMEOUT_MS });
      await conn.query("SELECT 1");
    } catch (error) {
      throw new Error(firstLine(error));
    } finally {
      await conn?.end().catch(() => conn?.destroy());
    }
  }

  /** Why the replica does not answer, or undefined when it does. */
  private unanswered(): Promise<string | undefined> {
    return this.probe().then(
      () => undefined,
      (error: Error) => error.message,
    );
  }

  /** Answers whether the error belongs to a replica outage (the read should go to the primary) rather than to the query. */
  async explains(error: unknown): Promise<boolean> {
    if (this.unreachable) return true;
    this.probing ??= this.unanswered().finally(() => (this.probing = undefined));
    const reason = await this.probing;
    if (reason === undefined) return false;
    if (!this.unreachable) {
      this.unreachable = true;
      this.logger.warn("database replica unreachable: lag-tolerant reads use the primary until it is back", { reason, error: firstLine(error) });
      this.watch();
    }
    return true;
  }

  /** Stops probing (the process is closing). */
  close(): void {
    clearTimeout(this.timer);
  }

  private watch(): void {
    this.timer = setTimeout(async () => {
      if ((await this.unanswered()) === undefined) {
        this.unreachable = false;
        this.logger.warn("database replica reachable again: lag-tolerant reads use it again");
      } else {
        this.watch();
      }
    }, this.probeEveryMs);
    this.timer.unref();
  }
}

/**
 * The replica client's adapter: every query and transaction goes to the
 * replica, or to the primary while the replica is unreachable. A transaction
 * stays on the side it started on.
 */
class ReplicaAdapter implements SqlDriverAdapter {
  readonly provider = "mysql";
  readonly adapterName = "@mw/replica";
  private primary?: Promise<SqlDriverAdapter>;

  constructor(
    private readonly replica: SqlDriverAdapter,
    private readonly primaryFactory: SqlDriverAdapterFactory,
    private readonly state: ReplicaState,
  ) {}

  queryRaw(query: SqlQuery) {
    return this.route((db) => db.queryRaw(query));
  }

  executeRaw(query: SqlQuery) {
    return this.route((db) => db.executeRaw(query));
  }

  executeScript(script: string) {
    return this.route((db) => db.executeScript(script));
  }

  startTransaction(isolationLevel?: IsolationLevel) {
    return this.route((db) => db.startTransaction(isolationLevel));
  }

  getConnectionInfo() {
    return this.replica.getConnectionInfo?.() ?? { supportsRelationJoins: false };
  }

  async dispose(): Promise<void> {
    const primary = this.primary;
    this.primary = undefined;
    await Promise.all([this.replica.dispose(), primary?.then((adapter) => adapter.dispose(), () => undefined)]);
  }

  private async route<T>(run: (db: SqlDriverAdapter) => Promise<T>): Promise<T> {
    if (!this.state.down) {
      try {
        return await run(this.replica);
      } catch (error) {
        if (!(await this.state.explains(error))) throw error;
      }
    }
    return run(await this.primaryAdapter());
  }

  private primaryAdapter(): Promise<SqlDriverAdapter> {
    this.primary ??= this.primaryFactory.connect().catch((error: unknown) => {
      this.primary = undefined;
      throw error;
    });
    return this.primary;
  }
}

class ReplicaAdapterFactory implements SqlDriverAdapterFactory {
  readonly provider = "mysql";
  readonly adapterName = "@mw/replica";

  constructor(
    private readonly replica: SqlDriverAdapterFactory,
    private readonly primary: SqlDriverAdapterFactory,
    private readonly state: ReplicaState,
  ) {}

  async connect(): Promise<SqlDriverAdapter> {
    return new ReplicaAdapter(await this.replica.connect(), this.primary, this.state);
  }
}

/**
 * The client of lag-tolerant reads and what it knows of the replica: a pool
 * of DB_POOL_SIZE on the replica, opened by the first read, falling back to
 * the primary through the `primary` factory's shared pool (no extra
 * connections) while the replica is unreachable.
 */
export function createReplicaPrisma(replicaUrl: string, primary: SqlDriverAdapterFactory, logger: Logger, settings: PoolSettings = {}): { client: PrismaClient; state: ReplicaState } {
  const state = new ReplicaState(replicaUrl, logger);
  const replica = new PrismaMariaDb(poolConfig(replicaUrl, settings));
  return { client: new PrismaClient({ adapter: new ReplicaAdapterFactory(replica, primary, state) }), state };
}

import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaMariaDb } from "@prisma/adapter-mariadb";
import type { IsolationLevel, SqlDriverAdapter, SqlDriverAdapterFactory, SqlQuery } from "@prisma/driver-adapter-utils";
import mariadb from "mariadb";
import type { PrismaClient } from "../generated/prisma/client.ts";
import { connectionConfig, poolConfig, prismaOver, type PoolSettings } from "./db.ts";
import type { Logger } from "../logging/logger.ts";

/** How long a probe of the replica waits for a connection: the probe decides whether a read falls back, so it must not hang. */
const PROBE_CONNECT_TIMEOUT_MS = 2000;

function firstLine(error: unknown): string {
  return (error as Error).message.split("\n")[0]!;
}

const LAG_SAMPLE_MS = 1000;
const MAX_LAG_SAMPLES = 600;

export interface ReplicaSettings {
  /** REPLICA_MAX_LAG_SECONDS: above it, lag-tolerant reads use the primary and /readyz says degraded. */
  maxLagSeconds: number;
  /** REPLICA_READ_WAIT_MS: how long a read after the caller's own write waits for the replica before it uses the primary. */
  readWaitMs: number;
}

/** A caller's last write could not be placed (no GTID position): its reads use the primary. */
export const PRIMARY = "primary";

/** Where the last write of each caller is kept, so every API process sees it. */
export interface CallerWrites {
  /** The primary position at or after the callers' latest write, PRIMARY, or undefined when none wrote lately. */
  lastWrite(callers: string[]): Promise<string | undefined>;
}

/** The callers a request speaks for (its credential and its client address) and, once decided, where its lag-tolerant reads go. */
export interface CallerReads {
  callers: string[];
  side?: Promise<"replica" | "primary">;
}

/** The request being served, for the replica client's adapter: set by the API where it knows the caller. */
export const callerScope = new AsyncLocalStorage<CallerReads>();

/** A MariaDB GTID position: per replication domain, the highest sequence number. */
type GtidPosition = Map<string, { server: string; seq: bigint }>;

/** "0-1-42,1-2-7" as the primary's @@gtid_binlog_pos or the replica's @@gtid_slave_pos gives it. */
export function parseGtidPosition(text: string): GtidPosition {
  const position: GtidPosition = new Map();
  for (const gtid of text.split(",").map((part) => part.trim()).filter(Boolean)) {
    const match = /^(\d+)-(\d+)-(\d+)$/.exec(gtid);
    if (!match) throw new Error(`not a GTID position: ${text}`);
    const seq = BigInt(match[3]!);
    const known = position.get(match[1]!);
    if (!known || known.seq < seq) position.set(match[1]!, { server: match[2]!, seq });
  }
  return position;
}

function formatGtidPosition(position: GtidPosition): string {
  return [...position].map(([domain, { server, seq }]) => `${domain}-${server}-${seq}`).join(",");
}

/** The later of several positions, domain by domain (parsing keeps each domain's highest). */
export function latestGtidPosition(texts: string[]): string {
  return formatGtidPosition(parseGtidPosition(texts.join(",")));
}

function reached(applied: GtidPosition, target: GtidPosition): boolean {
  return [...target].every(([domain, { seq }]) => (applied.get(domain)?.seq ?? -1n) >= seq);
}

function samePosition(a: GtidPosition, b: GtidPosition): boolean {
  return reached(a, b) && reached(b, a);
}

/** The first column of the first row of a query, through a driver adapter. */
async function readOne(db: SqlDriverAdapter, sql: string, args: unknown[] = []): Promise<string> {
  const result = await db.queryRaw({ sql, args, argTypes: args.map((arg) => ({ scalarType: typeof arg === "number" ? "float" : "string", arity: "scalar" })) });
  const value = result.rows[0]?.[0];
  return value === null || value === undefined ? "" : String(value);
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
  private lagTimer?: NodeJS.Timeout;
  /** Primary positions the replica had not reached when last looked at, oldest first, with when each was read. */
  private pending: { at: number; position: GtidPosition }[] = [];
  private lagSeconds?: number;
  private lagUnreadable = false;
  private sides?: { replica: SqlDriverAdapter; primary: () => Promise<SqlDriverAdapter> };
  private writes?: CallerWrites;

  constructor(
    private readonly replicaUrl: string,
    private readonly logger: Logger,
    private readonly settings: ReplicaSettings,
    private readonly probeEveryMs = 2000,
  ) {}

  /** True while an outage is known: reads skip the replica. */
  get down(): boolean {
    return this.unreachable;
  }

  /** Seconds the replica is behind the primary (undefined before the first measurement, or where GTID positions cannot be read). */
  get lag(): number | undefined {
    return this.lagSeconds;
  }

  /** True while the measured lag is above REPLICA_MAX_LAG_SECONDS: lag-tolerant reads use the primary meanwhile. */
  get lagging(): boolean {
    return this.lagSeconds !== undefined && this.lagSeconds > this.settings.maxLagSeconds;
  }

  get maxLagSeconds(): number {
    return this.settings.maxLagSeconds;
  }

  /** Where callers' last writes are kept (Redis, shared by every process): reads that follow one wait for the replica to reach it. */
  useCallerWrites(writes: CallerWrites): void {
    this.writes = writes;
  }

  /**
   * The replica client's first connection hands over both sides: from then on
   * the lag is measured every second (a primary position and the replica's
   * applied position, two one-row reads of global variables, no privilege).
   */
  attach(replica: SqlDriverAdapter, primary: () => Promise<SqlDriverAdapter>): void {
    this.sides = { replica, primary };
    if (this.lagTimer) return;
    const tick = () => {
      this.lagTimer = setTimeout(() => void this.measureLag().finally(tick), LAG_SAMPLE_MS);
      this.lagTimer.unref();
    };
    void this.measureLag().finally(tick);
  }

  /** Takes one lag sample now (the timer takes one every second). */
  async measureLag(): Promise<void> {
    const sides = this.sides;
    if (!sides || this.unreachable) return;
    try {
      const now = Date.now();
      const primary = parseGtidPosition(await readOne(await sides.primary(), "SELECT @@gtid_binlog_pos AS p"));
      const applied = parseGtidPosition(await readOne(sides.replica, "SELECT @@gtid_slave_pos AS p"));
      if (!this.pending.some((sample) => samePosition(sample.position, primary))) this.pending.push({ at: now, position: primary });
      this.pending = this.pending.filter((sample) => !reached(applied, sample.position));
      // A replica stopped for hours under writes: the oldest sample fixes the lag; the newest ones say how far it has come since.
      if (this.pending.length > MAX_LAG_SAMPLES) this.pending.splice(1, this.pending.length - MAX_LAG_SAMPLES);
      // The oldest primary position not yet applied was read at `at`: the replica misses a write at least that old.
      this.lagSeconds = this.pending.length === 0 ? 0 : (Date.now() - this.pending[0]!.at) / 1000;
      if (this.lagUnreadable) this.logger.warn("database replica lag readable again");
      this.lagUnreadable = false;
    } catch (error) {
      this.lagSeconds = undefined;
      // An unreachable replica is an outage (its own warning and probe), not a lag that cannot be read.
      if (await this.explains(error)) return;
      if (!this.lagUnreadable) this.logger.warn("database replica lag cannot be read (MariaDB's GTID positions): it is not in /metrics and moves no reads to the primary", { error: firstLine(error) });
      this.lagUnreadable = true;
    }
  }

  /**
   * Where a lag-tolerant read goes: the primary while the replica is down or
   * lags beyond REPLICA_MAX_LAG_SECONDS; for a caller that wrote within the
   * last moments (CallerWrites), the replica once it has applied that write
   * (MASTER_GTID_WAIT, at most REPLICA_READ_WAIT_MS), else the primary. The
   * answer holds for the rest of the caller's request.
   */
  async side(): Promise<"replica" | "primary"> {
    if (this.unreachable || this.lagging) return "primary";
    const caller = callerScope.getStore();
    if (!caller || !this.writes || !this.sides) return "replica";
    caller.side ??= this.sideFor(caller.callers, this.sides.replica);
    return caller.side;
  }

  private async sideFor(callers: string[], replica: SqlDriverAdapter): Promise<"replica" | "primary"> {
    const position = await this.writes!.lastWrite(callers).catch(() => PRIMARY);
    if (position === undefined) return "replica";
    if (position === PRIMARY) return "primary";
    const waitMs = this.settings.readWaitMs;
    if (waitMs === 0) return "primary";
    try {
      const result = await readOne(replica, "SELECT MASTER_GTID_WAIT(?, ?) AS p", [position, waitMs / 1000]);
      return Number(result) === 0 ? "replica" : "primary";
    } catch (error) {
      // A replica that cannot be reached starts an outage as a failed read does (one warning, the probe).
      await this.explains(error);
      return "primary";
    }
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
    clearTimeout(this.lagTimer);
    this.lagTimer = undefined;
    this.sides = undefined;
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
    if ((await this.state.side()) === "replica") {
      try {
        return await run(this.replica);
      } catch (error) {
        if (!(await this.state.explains(error))) throw error;
      }
    }
    return run(await this.primaryAdapter());
  }

  get replicaSide(): SqlDriverAdapter {
    return this.replica;
  }

  primarySide(): Promise<SqlDriverAdapter> {
    return this.primaryAdapter();
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
    const adapter = new ReplicaAdapter(await this.replica.connect(), this.primary, this.state);
    this.state.attach(adapter.replicaSide, () => adapter.primarySide());
    return adapter;
  }
}

/**
 * The client of lag-tolerant reads and what it knows of the replica: a pool
 * of DB_POOL_SIZE on the replica, opened by the first read, falling back to
 * the primary through the `primary` factory's shared pool (no extra
 * connections) while the replica is unreachable.
 */
export function createReplicaPrisma(replicaUrl: string, primary: SqlDriverAdapterFactory, logger: Logger, settings: PoolSettings & ReplicaSettings): { client: PrismaClient; state: ReplicaState } {
  const state = new ReplicaState(replicaUrl, logger, settings);
  const replica = new PrismaMariaDb(poolConfig(replicaUrl, settings));
  return { client: prismaOver(new ReplicaAdapterFactory(replica, primary, state), settings), state };
}

// A private MariaDB primary and replica for the read-replica tests: two
// mariadbd processes from the machine's own binaries, in a temporary folder,
// each on its own port and socket, the replica following the primary's binary
// log (GTID) with read_only on, as docs/deployment.md describes.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import mariadb from "mariadb";
import { migrate } from "../../scripts/migrations/apply.ts";
import { until } from "./wait.ts";

const USER = "mw";
const PASSWORD = "mw";
/** Replication must carry every migration, so the waits are generous: this machine is shared and often loaded. */
const CATCH_UP_SECONDS = 120;

export interface ReplicatedPair {
  /** The application's URLs (user mw) of each server. */
  primaryUrl: string;
  replicaUrl: string;
  replicaPort: number;
  /** One statement as root in the database, on the primary or the replica (over its socket). */
  onPrimary<T = unknown>(sql: string, values?: unknown[]): Promise<T>;
  onReplica<T = unknown>(sql: string, values?: unknown[]): Promise<T>;
  /** Waits until the replica has applied everything the primary has written so far. */
  caughtUp(): Promise<void>;
  /** The replica keeps receiving the binary log but applies nothing (lag that grows). */
  stopApplying(): Promise<void>;
  startApplying(): Promise<void>;
  stop(): Promise<void>;
}

interface Server {
  child: ChildProcess;
  socket: string;
  port: number;
  logFile: string;
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** mariadbd refuses to run as root unless told to. */
function runAsUser(): string[] {
  return process.getuid?.() === 0 ? ["--user=root"] : [];
}

// Small enough that two servers start quickly beside the shared one.
const SMALL = ["--innodb-buffer-pool-size=32M", "--innodb-log-file-size=16M", "--performance-schema=OFF", "--skip-name-resolve"];

async function startServer(dir: string, datadir: string, options: string[]): Promise<Server> {
  const port = await freePort();
  const socket = path.join(dir, "mariadb.sock");
  const logFile = path.join(dir, "mariadb.log");
  const out = openSync(logFile, "a");
  const child = spawn(
    "mariadbd",
    ["--no-defaults", `--datadir=${datadir}`, `--port=${port}`, "--bind-address=127.0.0.1", `--socket=${socket}`, `--pid-file=${path.join(dir, "mariadb.pid")}`, ...SMALL, ...options, ...runAsUser()],
    { stdio: ["ignore", out, out] },
  );
  // A test process that ends without stop() (a failed hook) must not leave servers behind.
  process.once("exit", () => child.kill("SIGKILL"));
  await until(
    async () => {
      if (child.exitCode !== null) throw new Error(`mariadbd exited (${child.exitCode}) while starting; see ${logFile}`);
      const conn = await mariadb.createConnection({ socketPath: socket, user: "root", password: "", connectTimeout: 1000 }).catch(() => undefined);
      await conn?.end();
      return conn !== undefined;
    },
    () => `mariadbd in ${dir} to answer; see ${logFile}`,
    60_000,
  );
  return { child, socket, port, logFile };
}

async function asRoot<T>(server: Server, sql: string, values?: unknown[], database?: string): Promise<T> {
  const conn = await mariadb.createConnection({ socketPath: server.socket, user: "root", password: "", database, connectTimeout: 5000, timezone: "Z" });
  try {
    return (await conn.query(sql, values)) as T;
  } finally {
    await conn.end();
  }
}

/**
 * Drops the replica's copies of the triggers. Replication never fires them (row events carry the rows the
 * primary's triggers wrote); rows the tests write on the replica alone (their stand-in for rows not
 * replicated yet) would, and the trigger's rows (order counts) would then clash with the primary's.
 */
async function dropReplicaTriggers(replica: Server, database: string): Promise<void> {
  const triggers = await asRoot<{ name: string }[]>(replica, "SELECT TRIGGER_NAME AS name FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = ?", [database]);
  for (const trigger of triggers) await asRoot(replica, `DROP TRIGGER \`${trigger.name}\``, [], database);
}

async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the pair, replicates from the primary's first binary log event, and
 * migrates `database` on the primary with the project's applier: the replica
 * gets the schema (and the application user) through replication only.
 */
export async function startReplicatedPair(database = "mw"): Promise<ReplicatedPair> {
  const root = mkdtempSync(path.join(tmpdir(), "mw-replication-"));
  const servers: Server[] = [];
  const stop = async () => {
    await Promise.all(servers.map(stopServer));
    rmSync(root, { recursive: true, force: true });
  };
  try {
    // One system database, copied: both servers start from the same state, as a replica cloned from a backup does.
    const primaryDir = path.join(root, "primary");
    const replicaDir = path.join(root, "replica");
    mkdirSync(primaryDir);
    mkdirSync(replicaDir);
    const install = spawnSync(
      "mariadb-install-db",
      ["--no-defaults", `--datadir=${path.join(primaryDir, "data")}`, "--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve", ...runAsUser()],
      { encoding: "utf8" },
    );
    if (install.status !== 0) throw new Error(`mariadb-install-db failed: ${(install.stderr || install.stdout).trim().split("\n").pop()}`);
    cpSync(path.join(primaryDir, "data"), path.join(replicaDir, "data"), { recursive: true });

    const primary = await startServer(primaryDir, path.join(primaryDir, "data"), ["--server-id=1", `--log-bin=${path.join(primaryDir, "binlog")}`, "--binlog-format=ROW", "--log-bin-trust-function-creators=1"]);
    servers.push(primary);
    const replica = await startServer(replicaDir, path.join(replicaDir, "data"), ["--server-id=2", "--read-only=ON", `--relay-log=${path.join(replicaDir, "relay")}`]);
    servers.push(replica);

    await asRoot(primary, "CREATE USER 'repl'@'127.0.0.1' IDENTIFIED BY 'repl'");
    await asRoot(primary, "GRANT REPLICATION SLAVE ON *.* TO 'repl'@'127.0.0.1'");
    await asRoot(replica, `CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=${primary.port}, MASTER_USER='repl', MASTER_PASSWORD='repl', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1`);
    await asRoot(replica, "START SLAVE");
    // The application's user may use its database only: no global privilege, so read_only binds it on the replica.
    await asRoot(primary, "CREATE USER ?@'127.0.0.1' IDENTIFIED BY ?", [USER, PASSWORD]);
    await asRoot(primary, `GRANT ALL PRIVILEGES ON \`${database}\`.* TO ?@'127.0.0.1'`, [USER]);

    const url = (port: number) => `mysql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
    await migrate(url(primary.port));

    const caughtUp = async () => {
      const [{ position }] = await asRoot<[{ position: string }]>(primary, "SELECT @@gtid_binlog_pos AS position");
      const [{ reached }] = await asRoot<[{ reached: number }]>(replica, "SELECT MASTER_GTID_WAIT(?, ?) AS reached", [position, CATCH_UP_SECONDS]);
      if (Number(reached) !== 0) {
        const [status] = await asRoot<Record<string, unknown>[]>(replica, "SHOW SLAVE STATUS");
        throw new Error(`the replica did not reach ${position} within ${CATCH_UP_SECONDS} s: ${JSON.stringify({ io: status?.Slave_IO_Running, sql: status?.Slave_SQL_Running, error: status?.Last_Error || status?.Last_IO_Error })}`);
      }
    };
    await caughtUp();
    await dropReplicaTriggers(replica, database);

    return {
      primaryUrl: url(primary.port),
      replicaUrl: url(replica.port),
      replicaPort: replica.port,
      onPrimary: (sql, values) => asRoot(primary, sql, values, database),
      onReplica: (sql, values) => asRoot(replica, sql, values, database),
      caughtUp,
      stopApplying: async () => void (await asRoot(replica, "STOP SLAVE SQL_THREAD")),
      startApplying: async () => void (await asRoot(replica, "START SLAVE SQL_THREAD")),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

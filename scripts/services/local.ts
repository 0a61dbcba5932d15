// MariaDB and Redis from the machine's own binaries, with their data under
// .data/, for a machine where the two packages are installed but nothing runs;
// and the database user, on a machine whose MariaDB runs but lacks it.
import { spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import mariadb from "mariadb";
import { checkDatabase, checkRedis, parseRedisUrl } from "@mw/platform";
import { binary, launch, stopChild, waitUntil } from "./children.ts";
import { LOCAL_HOSTS, provideDatabaseUser } from "./database-user.ts";

export const DEFAULT_DATA_DIR = path.resolve(import.meta.dirname, "../../.data");

export interface LocalServices {
  /** What was started, e.g. ["MariaDB on 127.0.0.1:3306"]. */
  started: string[];
  /** What was set up in a server already running, one line each (the database user). */
  prepared: string[];
  stop(): Promise<void>;
}

/** The local services cannot be used as the URLs say; the message names what to do. */
export class LocalServicesError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
    this.name = "LocalServicesError";
  }
}

type Kind = "database" | "redis";

/** The ports of the documented defaults (docs/configuration.md): mysql://…@127.0.0.1:3306, redis://127.0.0.1:6379. */
const DEFAULT_PORTS: Record<Kind, number> = { database: 3306, redis: 6379 };
const SERVER_NAMES: Record<Kind, string> = { database: "MariaDB", redis: "Redis" };
const VARIABLES: Record<Kind, string> = { database: "DATABASE_URL", redis: "REDIS_URL" };
const EX_UNAVAILABLE = 69;

/**
 * True when the URL points at this machine and nothing listens there: ours to start.
 * Only a single Redis node is started this way; Sentinel and Cluster URLs name
 * topologies that `pnpm services --redis-sentinel` / `--redis-cluster` start.
 */
export async function wantsLocal(kind: Kind, url: string): Promise<boolean> {
  const host = kind === "database" ? new URL(url).hostname : singleRedisHost(url);
  if (host === undefined || !LOCAL_HOSTS.has(host)) return false;
  const problem = kind === "database" ? await checkDatabase(url, { database: false }) : await checkRedis(url);
  return problem?.nothingListens ?? false;
}

/**
 * A local URL on another port than the default is a setting for a server that
 * should be running there (a second instance, a tunnel): a fresh empty one
 * started in its place would take the configured queues' jobs against an empty
 * database. The line names the setting and the address, never the password.
 */
function notAtDefault(kind: Kind, url: string): LocalServicesError | undefined {
  const parsed = new URL(url);
  const port = Number(parsed.port || DEFAULT_PORTS[kind]);
  if (port === DEFAULT_PORTS[kind]) return undefined;
  const user = parsed.username ? ` (${decodeURIComponent(parsed.username)})` : "";
  return new LocalServicesError(
    `${VARIABLES[kind]}: nothing answers at ${parsed.hostname}:${port}${user}; pnpm start starts a local ${SERVER_NAMES[kind]} only for the default address ${parsed.hostname}:${DEFAULT_PORTS[kind]}`,
    EX_UNAVAILABLE,
  );
}

function singleRedisHost(url: string): string | undefined {
  const target = parseRedisUrl(url);
  return target.kind === "single" ? target.host : undefined;
}

/** The login mariadbd must switch to: root may only run it by naming itself. */
function runAsUser(): string[] {
  return process.getuid?.() === 0 ? ["--user=root"] : [];
}

async function startMariaDb(databaseUrl: string, dataDir: string): Promise<ChildProcess> {
  const daemon = binary(["mariadbd", "/usr/sbin/mariadbd", "mysqld", "/usr/sbin/mysqld"]);
  const installer = binary(["mariadb-install-db", "mysql_install_db"]);
  if (!daemon || !installer) throw new Error("MariaDB is not installed here (no mariadbd / mariadb-install-db): install it (apt-get install mariadb-server) or set DATABASE_URL");
  const url = new URL(databaseUrl);
  const datadir = path.join(dataDir, "mariadb");
  const socket = path.join(dataDir, "mariadb.sock");
  const logFile = path.join(dataDir, "mariadb.log");
  mkdirSync(dataDir, { recursive: true });
  if (!existsSync(path.join(datadir, "mysql"))) {
    const install = spawnSync(installer, ["--no-defaults", `--datadir=${datadir}`, "--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve", ...runAsUser()], { encoding: "utf8" });
    if (install.status !== 0) throw new Error(`${installer} failed: ${(install.stderr || install.stdout).trim().split("\n").pop()}`);
  }
  const child = launch(daemon, [
    "--no-defaults",
    `--datadir=${datadir}`,
    `--port=${url.port || 3306}`,
    "--bind-address=127.0.0.1",
    `--socket=${socket}`,
    `--pid-file=${path.join(dataDir, "mariadb.pid")}`,
    "--skip-log-bin",
    ...runAsUser(),
  ], logFile);
  const asRoot = { socketPath: socket, user: "root", password: "", connectTimeout: 1000 };
  await waitUntil(async () => {
    const conn = await mariadb.createConnection(asRoot).catch(() => undefined);
    await conn?.end();
    return conn !== undefined;
  }, child, "mariadbd", logFile);
  // The user DATABASE_URL names, able to create its database (the migrator does).
  const conn = await mariadb.createConnection(asRoot);
  try {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    for (const host of ["127.0.0.1", "localhost", "::1"]) {
      await conn.query("CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?", [user, host, password]);
      await conn.query("ALTER USER ?@? IDENTIFIED BY ?", [user, host, password]);
      await conn.query("GRANT ALL PRIVILEGES ON *.* TO ?@?", [user, host]);
    }
  } finally {
    await conn.end();
  }
  return child;
}

async function startRedis(redisUrl: string, dataDir: string): Promise<ChildProcess> {
  const server = binary(["redis-server", "/usr/bin/redis-server"]);
  if (!server) throw new Error("Redis is not installed here (no redis-server): install it (apt-get install redis-server) or set REDIS_URL");
  const url = new URL(redisUrl);
  const dir = path.join(dataDir, "redis");
  const logFile = path.join(dataDir, "redis.log");
  mkdirSync(dir, { recursive: true });
  const child = launch(server, ["--bind", "127.0.0.1", "--port", url.port || "6379", "--dir", dir, "--save", "", "--appendonly", "no"], logFile);
  await waitUntil(async () => (await checkRedis(redisUrl)) === undefined, child, "redis-server", logFile);
  return child;
}

/**
 * Starts whichever of the two has nothing answering at its local URL, and
 * creates the database user in a local server that refuses it; stop() ends
 * what it started. Throws LocalServicesError when neither works.
 * `onlyAtDefaultAddress` (`pnpm start`) starts one only at its default port,
 * and throws (exit 69) for a local URL on another port where nothing answers.
 */
export async function startLocalServices(options: { databaseUrl: string; redisUrl: string; dataDir?: string; onlyAtDefaultAddress?: boolean }): Promise<LocalServices> {
  const dataDir = options.dataDir ?? DEFAULT_DATA_DIR;
  const children: ChildProcess[] = [];
  const started: string[] = [];
  const prepared: string[] = [];
  const stop = async () => {
    await Promise.all(children.map(stopChild));
  };
  try {
    const database = await wantsLocal("database", options.databaseUrl);
    const redis = await wantsLocal("redis", options.redisUrl);
    // Refused before anything starts, so nothing is started only to be stopped again.
    if (options.onlyAtDefaultAddress) {
      const refused = (database && notAtDefault("database", options.databaseUrl)) || (redis && notAtDefault("redis", options.redisUrl));
      if (refused) throw refused;
    }
    if (database) {
      children.push(await startMariaDb(options.databaseUrl, dataDir));
      started.push(`MariaDB on 127.0.0.1:${new URL(options.databaseUrl).port || DEFAULT_PORTS.database} (data in ${path.join(dataDir, "mariadb")})`);
    }
    if (redis) {
      children.push(await startRedis(options.redisUrl, dataDir));
      started.push(`Redis on 127.0.0.1:${new URL(options.redisUrl).port || DEFAULT_PORTS.redis}`);
    }
    const user = await provideDatabaseUser(options.databaseUrl, { dataDir });
    if (user && "problem" in user) throw new LocalServicesError(user.problem.line, user.problem.exitCode);
    if (user) prepared.push(user.created);
  } catch (error) {
    await stop();
    throw error;
  }
  return { started, prepared, stop };
}

// The user DATABASE_URL names, created as the server's administrator over its
// local socket: a machine whose MariaDB was installed from the distribution
// (and runs) knows only root, who logs in there by being root (unix_socket).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { userInfo } from "node:os";
import path from "node:path";
import mariadb from "mariadb";
import { checkDatabase, type ServiceProblem } from "@mw/platform";

export const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

/** The addresses a local client connects from, as the server names them (with and without name resolution). */
const CLIENT_HOSTS = ["localhost", "127.0.0.1", "::1"];

/** Where distributions put the server's socket, after what the client configuration names. */
const USUAL_SOCKETS = ["/run/mysqld/mysqld.sock", "/var/run/mysqld/mysqld.sock", "/var/lib/mysql/mysql.sock", "/tmp/mysql.sock"];

const EX_CONFIG = 78;
const CONNECT_TIMEOUT_MS = 5_000;

export type UserOutcome = { created: string } | { problem: ServiceProblem };

interface Statement {
  sql: string;
  values: string[];
}

function quoteIdent(name: string): string {
  return `\`${name.replace(/`/g, "``")}\``;
}

function quoteString(text: string): string {
  return `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

/**
 * The user with every privilege on the URL's database and on the databases
 * named after it (`<db>_demo` of `pnpm demo`, `<db>_<run>_<slot>` of the tests);
 * the migrator creates the database itself.
 */
function statements(user: string, password: string, database: string): Statement[] {
  const family = `${database.replace(/[\\_%]/g, "\\$&")}\\_%`;
  return CLIENT_HOSTS.flatMap((host) => [
    { sql: "CREATE USER IF NOT EXISTS ?@? IDENTIFIED BY ?", values: [user, host, password] },
    { sql: `GRANT ALL PRIVILEGES ON ${quoteIdent(database)}.* TO ?@?`, values: [user, host] },
    { sql: `GRANT ALL PRIVILEGES ON ${quoteIdent(family)}.* TO ?@?`, values: [user, host] },
  ]);
}

function asText(statement: Statement): string {
  let next = 0;
  return `${statement.sql.replace(/\?/g, () => quoteString(statement.values[next++]!))};`;
}

/** The sockets to try: those the client configuration names (my_print_defaults), then `extra`, then the usual places. */
function candidateSockets(extra: string[]): string[] {
  const defaults = spawnSync("my_print_defaults", ["client", "client-server", "mysql", "mariadb", "mysqld", "mariadbd"], { encoding: "utf8", timeout: CONNECT_TIMEOUT_MS });
  const named = (defaults.stdout ?? "")
    .split("\n")
    .map((line) => /^--socket=(.+)$/.exec(line.trim())?.[1])
    .filter((socket): socket is string => socket !== undefined);
  return [...new Set([...named, ...extra, ...USUAL_SOCKETS])].filter((socket) => existsSync(socket));
}

/** Administrator logins unix_socket may accept: root, and the login this process runs as. */
function adminLogins(): string[] {
  let own: string | undefined;
  try {
    own = userInfo().username;
  } catch {
    own = undefined; // no passwd entry (some containers)
  }
  return [...new Set(["root", ...(own ? [own] : [])])];
}

/**
 * A connection to this machine's server listening on `port`, as an
 * administrator over its socket (the usual places unless `sockets` names them);
 * undefined when this process may not be one.
 */
export async function connectAsAdministrator(port: number, sockets = candidateSockets([])): Promise<{ conn: mariadb.Connection; login: string; socket: string } | undefined> {
  for (const socket of sockets) {
    for (const login of adminLogins()) {
      const conn = await mariadb.createConnection({ socketPath: socket, user: login, connectTimeout: CONNECT_TIMEOUT_MS }).catch(() => undefined);
      if (!conn) continue;
      // The socket may belong to another server of this machine than the one at the URL's port.
      const [row] = ((await conn.query("SELECT @@port AS port").catch(() => [])) as { port: number | bigint }[]);
      if (row && Number(row.port) === port) return { conn, login, socket };
      await conn.end().catch(() => conn.destroy());
    }
  }
  return undefined;
}

function runCommand(file: string): string {
  return process.getuid?.() === 0 ? `mariadb -uroot -p < ${file}` : `sudo mariadb < ${file}`;
}

/**
 * When the local server at DATABASE_URL refuses its user: creates the user (as
 * the server's administrator over the local socket, when this process may act
 * as one) and says so, or explains what to run. The SQL, password included, goes
 * to a file only its owner reads, never to the terminal. Undefined when the URL
 * points elsewhere or the server accepts the user.
 */
export async function provideDatabaseUser(databaseUrl: string, options: { dataDir: string; sockets?: string[] }): Promise<UserOutcome | undefined> {
  const url = new URL(databaseUrl);
  if (!LOCAL_HOSTS.has(url.hostname)) return undefined;
  const refused = await checkDatabase(databaseUrl, { database: false });
  if (!refused?.userRefused) return undefined;
  const port = url.port ? Number(url.port) : 3306;
  const at = `${url.hostname}:${port}`;
  const user = decodeURIComponent(url.username);
  const database = decodeURIComponent(url.pathname.slice(1));
  const wanted = statements(user, decodeURIComponent(url.password), database);

  const admin = await connectAsAdministrator(port, options.sockets ?? candidateSockets([path.join(options.dataDir, "mariadb.sock")]));
  let failure = "";
  if (admin) {
    try {
      const [existing] = (await admin.conn.query("SELECT COUNT(*) AS n FROM mysql.user WHERE User = ? AND Host IN (?, ?, ?, '%')", [user, ...CLIENT_HOSTS])) as { n: number | bigint }[];
      if (Number(existing!.n) > 0) {
        return {
          problem: {
            line: `The database at ${at} refused user "${user}" (DATABASE_URL), which exists there: the password in DATABASE_URL is not its password. Fix DATABASE_URL.`,
            exitCode: EX_CONFIG,
            userRefused: true,
          },
        };
      }
      for (const statement of wanted) await admin.conn.query(statement.sql, statement.values);
      return { created: `created database user "${user}" with all privileges on ${database} and ${database}_* (as ${admin.login} over ${admin.socket})` };
    } catch (error) {
      failure = ` (as ${admin.login} over ${admin.socket}: ${(error as Error).message.split("\n")[0]})`;
    } finally {
      await admin.conn.end().catch(() => admin.conn.destroy());
    }
  }
  mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, "database-user.sql");
  rmSync(file, { force: true }); // written afresh, so only its owner may read it
  writeFileSync(file, `-- The user DATABASE_URL names, for ${at}; run as the server's administrator.\n${wanted.map(asText).join("\n")}\n`, { mode: 0o600 });
  return {
    problem: {
      line: `The database at ${at} refused user "${user}" (DATABASE_URL), and this process could not create it as the server's administrator${failure}. If the user exists, fix its password in DATABASE_URL; otherwise create it, then run this again:\n  ${runCommand(file)}`,
      exitCode: EX_CONFIG,
      userRefused: true,
    },
  };
}

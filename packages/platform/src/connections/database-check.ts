// The database half of the start check (preflight.ts has Redis's): alone, so a `pnpm cli` command
// that needs only the database loads no Redis client.
import mariadb from "mariadb";

/** A service the platform cannot start without, explained in one line, and the exit code to use. */
export interface ServiceProblem {
  line: string;
  exitCode: number;
  /** Connection refused: nothing listens at the address (a local service that is not running). */
  nothingListens?: boolean;
  /** The database server answered but refused the user: unknown there, or another password. */
  userRefused?: boolean;
}

export const EX_UNAVAILABLE = 69;
export const EX_CONFIG = 78;
export const CONNECT_TIMEOUT_MS = 5_000;

function where(url: URL, defaultPort: number): string {
  return `${url.hostname}:${url.port || defaultPort}`;
}

/** What a failed connection attempt says about the address, in words. */
export function networkReason(error: { code?: string; message: string }): string | undefined {
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused (nothing listens there)";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "no such host";
    case "ETIMEDOUT":
    case "ER_CONNECTION_TIMEOUT":
      return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    default:
      return undefined;
  }
}

/**
 * Connects once as DATABASE_URL says. `database: false` checks only the server
 * and the credentials (the migrator creates the database itself). `variable`
 * names the setting the URL came from in the lines.
 */
export async function checkDatabase(databaseUrl: string, options: { database: boolean; variable?: string }): Promise<ServiceProblem | undefined> {
  const variable = options.variable ?? "DATABASE_URL";
  const url = new URL(databaseUrl);
  const at = where(url, 3306);
  const user = decodeURIComponent(url.username);
  const database = decodeURIComponent(url.pathname.slice(1));
  let conn: mariadb.Connection | undefined;
  try {
    conn = await mariadb.createConnection({
      host: url.hostname,
      port: url.port ? Number(url.port) : 3306,
      user,
      password: decodeURIComponent(url.password),
      database: options.database ? database : undefined,
      connectTimeout: CONNECT_TIMEOUT_MS,
    });
    if (options.database) {
      const [migrated] = await conn.query("SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = '_prisma_migrations'");
      if (Number(migrated.n) === 0) {
        return { line: `The database "${database}" at ${at} (${variable}) has not been migrated: run \`pnpm db:migrate\` (\`pnpm start\` does).`, exitCode: EX_CONFIG };
      }
    }
    return undefined;
  } catch (raw) {
    const error = raw as { code?: string; message: string };
    const network = networkReason(error);
    if (network) {
      return {
        line: `Cannot reach the database at ${at} (${variable}): ${network}. Start MariaDB or MySQL there (\`pnpm services\` runs a local one) or set ${variable}.`,
        exitCode: EX_UNAVAILABLE,
        nothingListens: error.code === "ECONNREFUSED",
      };
    }
    if (error.code === "ER_ACCESS_DENIED_ERROR" || error.code === "ER_ACCESS_DENIED_NO_PASSWORD_ERROR") {
      return {
        line: `The database at ${at} refused user "${user}" (${variable}): wrong password, or no such user for this address. Fix ${variable}, or create the user (\`pnpm start\` does when it may act as the server's administrator; docs/operations.md, "Running it").`,
        exitCode: EX_CONFIG,
        userRefused: true,
      };
    }
    if (error.code === "ER_BAD_DB_ERROR") {
      return { line: `The database "${database}" does not exist at ${at} (${variable}): run \`pnpm db:migrate\` (\`pnpm start\` does) or set ${variable}.`, exitCode: EX_CONFIG };
    }
    if (error.code === "ER_DBACCESS_DENIED_ERROR") {
      return { line: `User "${user}" may not use the database "${database}" at ${at} (${variable}): grant it, or set ${variable}.`, exitCode: EX_CONFIG };
    }
    return { line: `Cannot use the database at ${at} (${variable}): ${error.message.split("\n")[0]}`, exitCode: EX_UNAVAILABLE };
  } finally {
    await conn?.end().catch(() => conn?.destroy());
  }
}

/** Prints one line per problem found and exits with the first one's code; returns when there is none. */
export function exitOnProblems(...problems: (ServiceProblem | undefined)[]): void {
  const found = problems.filter((problem): problem is ServiceProblem => problem !== undefined);
  if (found.length === 0) return;
  for (const problem of found) console.error(problem.line);
  process.exit(found[0]!.exitCode);
}

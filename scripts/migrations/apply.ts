import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import mariadb from "mariadb";

/**
 * Applies prisma/migrations/* the way `prisma migrate deploy` does, keeping
 * Prisma's `_prisma_migrations` table (same columns, sha256 checksums), so the
 * real CLI accepts the history wherever its native engine is available.
 */

const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS \`_prisma_migrations\` (
    \`id\` VARCHAR(36) NOT NULL,
    \`checksum\` VARCHAR(64) NOT NULL,
    \`finished_at\` DATETIME(3) NULL,
    \`migration_name\` VARCHAR(255) NOT NULL,
    \`logs\` TEXT NULL,
    \`rolled_back_at\` DATETIME(3) NULL,
    \`started_at\` DATETIME(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
    \`applied_steps_count\` INTEGER UNSIGNED NOT NULL DEFAULT 0,
    PRIMARY KEY (\`id\`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`;

// The advisory lock key Prisma's migrate uses, so ours and theirs never run at once.
const LOCK_NAME = "72707369";

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  database: string;
  created: boolean;
  applied: string[];
}

export const DEFAULT_MIGRATIONS_DIR = path.resolve(import.meta.dirname, "../../prisma/migrations");

export function readMigrations(dir = DEFAULT_MIGRATIONS_DIR): MigrationFile[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

export function connectionOptions(databaseUrl: string): mariadb.ConnectionConfig & { database: string } {
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (!database) throw new Error("DATABASE_URL names no database");
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : 3306,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database,
    timezone: "Z",
  };
}

function quoteIdent(name: string): string {
  return `\`${name.replace(/`/g, "``")}\``;
}

export async function ensureDatabase(databaseUrl: string): Promise<boolean> {
  const { database, ...server } = connectionOptions(databaseUrl);
  const conn = await mariadb.createConnection(server);
  try {
    const rows = (await conn.query("SELECT 1 FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?", [database])) as unknown[];
    if (rows.length > 0) return false;
    await conn.query(`CREATE DATABASE IF NOT EXISTS ${quoteIdent(database)} CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    return true;
  } finally {
    await conn.end();
  }
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

export class MigrationError extends Error {
  override name = "MigrationError";
}

export async function migrate(
  databaseUrl: string,
  options: { dir?: string; log?: (line: string) => void } = {},
): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  const created = await ensureDatabase(databaseUrl);
  const files = readMigrations(options.dir);
  const conn = await mariadb.createConnection({ ...connectionOptions(databaseUrl), multipleStatements: true });
  const applied: string[] = [];
  try {
    await conn.query(MIGRATIONS_TABLE);
    const [lock] = (await conn.query("SELECT GET_LOCK(?, 60) AS got", [LOCK_NAME])) as { got: number | bigint }[];
    if (Number(lock?.got) !== 1) throw new MigrationError("another migration holds the migration lock");
    const rows = (await conn.query(
      "SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations ORDER BY started_at",
    )) as AppliedRow[];
    const live = rows.filter((row) => row.rolled_back_at === null);
    const failed = live.find((row) => row.finished_at === null);
    if (failed) {
      throw new MigrationError(
        `migration ${failed.migration_name} failed earlier and left the database part-way; fix the database, then mark it rolled back (UPDATE _prisma_migrations SET rolled_back_at = NOW(3) WHERE migration_name = '${failed.migration_name}')`,
      );
    }
    const done = new Map(live.map((row) => [row.migration_name, row]));
    for (const name of done.keys()) {
      if (!files.some((file) => file.name === name)) log(`warning: ${name} is applied but missing from the migrations folder`);
    }
    for (const file of files) {
      const row = done.get(file.name);
      if (row) {
        if (row.checksum !== file.checksum) {
          throw new MigrationError(`migration ${file.name} was modified after it was applied (checksum differs)`);
        }
        continue;
      }
      const id = randomUUID();
      await conn.query("INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at) VALUES (?, ?, ?, NOW(3))", [
        id,
        file.checksum,
        file.name,
      ]);
      try {
        await conn.query(file.sql);
      } catch (error) {
        await conn.query("UPDATE _prisma_migrations SET logs = ? WHERE id = ?", [String(error), id]);
        throw new MigrationError(`migration ${file.name} failed: ${(error as Error).message}`, { cause: error });
      }
      await conn.query("UPDATE _prisma_migrations SET finished_at = NOW(3), applied_steps_count = 1 WHERE id = ?", [id]);
      applied.push(file.name);
      log(`applied ${file.name}`);
    }
    return { database: connectionOptions(databaseUrl).database, created, applied };
  } finally {
    await conn.query("SELECT RELEASE_LOCK(?)", [LOCK_NAME]).catch(() => {});
    await conn.end();
  }
}

/** Drops the database named in the URL (tests and scratch databases only). */
export async function dropDatabase(databaseUrl: string): Promise<void> {
  const { database, ...server } = connectionOptions(databaseUrl);
  const conn = await mariadb.createConnection(server);
  try {
    await conn.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)}`);
  } finally {
    await conn.end();
  }
}

/** Names of the databases on the server of `databaseUrl` that match a SQL REGEXP. */
export async function listDatabases(databaseUrl: string, pattern: string): Promise<string[]> {
  const { database: _database, ...server } = connectionOptions(databaseUrl);
  const conn = await mariadb.createConnection(server);
  try {
    const rows = (await conn.query("SELECT SCHEMA_NAME AS name FROM information_schema.SCHEMATA WHERE SCHEMA_NAME REGEXP ?", [
      pattern,
    ])) as { name: string }[];
    return rows.map((row) => row.name);
  } finally {
    await conn.end();
  }
}

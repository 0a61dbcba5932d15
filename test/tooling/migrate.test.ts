import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createPrisma, sha256Hex } from "@mw/platform";
import { DEFAULT_MIGRATIONS_DIR, dropDatabase, migrate, readMigrations } from "../../scripts/migrations/apply.ts";
import { afterAll, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../support/env.ts";
import { spawnEntry } from "../support/processes.ts";

const scratch = testDatabaseUrl(`migrate_${process.pid}`);
afterAll(() => dropDatabase(scratch));

describe("pnpm db:migrate", () => {
  it("creates the database, applies every migration, and a second run is a no-op", async () => {
    await dropDatabase(scratch);
    const migrations = readMigrations();
    const first = await migrate(scratch);
    expect(first.created).toBe(true);
    expect(first.applied).toEqual(migrations.map((m) => m.name));

    const second = await migrate(scratch);
    expect(second).toMatchObject({ created: false, applied: [] });

    const prisma = createPrisma(scratch, { connectionLimit: 1 });
    try {
      const rows = await prisma.$queryRawUnsafe<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number }[]>(
        "SELECT migration_name, checksum, finished_at, applied_steps_count FROM _prisma_migrations ORDER BY migration_name",
      );
      expect(rows.map((r) => r.migration_name)).toEqual(migrations.map((m) => m.name));
      for (const [i, row] of rows.entries()) {
        expect(row.checksum).toBe(sha256Hex(migrations[i]!.sql));
        expect(row.finished_at).toBeInstanceOf(Date);
        expect(Number(row.applied_steps_count)).toBe(1);
      }
    } finally {
      await prisma.$disconnect();
    }
  });

  it("refuses to go on when an applied migration was edited", async () => {
    await dropDatabase(scratch);
    const dir = mkdtempSync(path.join(tmpdir(), "mw-migrations-"));
    cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
    await migrate(scratch, { dir });
    const first = readMigrations(dir)[0]!;
    writeFileSync(path.join(dir, first.name, "migration.sql"), `${first.sql}\n-- edited\n`);
    await expect(migrate(scratch, { dir })).rejects.toThrow(`migration ${first.name} was modified after it was applied`);
  });

  it("records a failed migration and refuses to run past it", async () => {
    await dropDatabase(scratch);
    const dir = mkdtempSync(path.join(tmpdir(), "mw-migrations-"));
    cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
    const broken = path.join(dir, "99990101000000_broken");
    cpSync(path.join(dir, readMigrations(dir)[0]!.name), broken, { recursive: true });
    writeFileSync(path.join(broken, "migration.sql"), "CREATE TABLE `ok_then` (`id` INTEGER NOT NULL);\nSELECT * FROM `no_such_table`;\n");
    await expect(migrate(scratch, { dir })).rejects.toThrow(/migration 99990101000000_broken failed/);
    await expect(migrate(scratch, { dir })).rejects.toThrow(/99990101000000_broken failed earlier/);
  });

  it("says in one line, without a stack trace, that the server refused the password, naming DATABASE_URL", async () => {
    const wrong = new URL(scratch);
    wrong.password = "not-the-password";
    const runs = ["scripts/db-migrate.ts", "scripts/db-check.ts"].map((script) => spawnEntry(script, [], { DATABASE_URL: wrong.toString() }));
    for (const run of runs) {
      expect(await run.exited(), run.output()).toEqual({ code: 78, signal: null });
      expect(run.output()).toMatch(/^The database at .+ refused user "[^"]+" \(DATABASE_URL\): wrong password/);
      expect(run.output()).not.toMatch(/^\s+at /m);
      expect(run.output().trim().split("\n")).toHaveLength(1);
    }
  }, 300_000);
});

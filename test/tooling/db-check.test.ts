import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_MIGRATIONS_DIR, dropDatabase, migrate } from "../../scripts/migrations/apply.ts";
import { DEFAULT_SCHEMA_PATH, findDrift } from "../../scripts/migrations/drift.ts";
import { testDatabaseUrl } from "../support/env.ts";

const tmp = mkdtempSync(path.join(os.tmpdir(), "mw-db-check-"));
const scratchUrl = testDatabaseUrl(`drift_${process.pid}`);
const typesUrl = testDatabaseUrl(`drift_types_${process.pid}`);

// Tests reach the database only through migrate(), so each change to a database is a migration in a temporary folder.
function migrationsDir(name: string, migrations: Record<string, string>, withRealHistory: boolean): string {
  const dir = path.join(tmp, name);
  if (withRealHistory) cpSync(DEFAULT_MIGRATIONS_DIR, dir, { recursive: true });
  for (const [migration, sql] of Object.entries(migrations)) {
    mkdirSync(path.join(dir, migration), { recursive: true });
    writeFileSync(path.join(dir, migration, "migration.sql"), sql);
  }
  return dir;
}

afterAll(async () => {
  await dropDatabase(scratchUrl);
  await dropDatabase(typesUrl);
  rmSync(tmp, { recursive: true, force: true });
});

describe("findDrift", () => {
  it("finds nothing on a freshly migrated database", async () => {
    expect(await findDrift(testDatabaseUrl())).toEqual([]);
  });

  describe("on a database changed behind the schema's back", () => {
    beforeAll(async () => {
      await dropDatabase(scratchUrl);
      const breakage = `
        ALTER TABLE \`users\` DROP COLUMN \`capabilities\`;
        ALTER TABLE \`users\` MODIFY \`login\` VARCHAR(50) NOT NULL;
        ALTER TABLE \`users\` MODIFY \`password_hash\` VARCHAR(255) NOT NULL;
        ALTER TABLE \`users\` ALTER \`created_at\` DROP DEFAULT;
        ALTER TABLE \`application_passwords\` DROP INDEX \`application_passwords_lookup_id_key\`;
        ALTER TABLE \`application_passwords\` DROP FOREIGN KEY \`application_passwords_user_id_fkey\`;
        CREATE TABLE \`scratch_notes\` (\`id\` INTEGER NOT NULL, PRIMARY KEY (\`id\`));
      `;
      await migrate(scratchUrl, { dir: migrationsDir("broken", { "99990101000000_break": breakage }, true) });
    });

    it("reports each change on its own line", async () => {
      const drift = await findDrift(scratchUrl);
      expect(drift.toSorted()).toEqual(
        [
          "table users: column capabilities is missing from the database",
          "table users: column login is VARCHAR(60) in the schema but VARCHAR(50) in the database",
          "table users: column password_hash is NULL in the schema but NOT NULL in the database",
          "table users: column created_at is DEFAULT CURRENT_TIMESTAMP in the schema but without DEFAULT in the database",
          "table application_passwords: index application_passwords_lookup_id_key UNIQUE (lookup_id) is missing from the database",
          "table application_passwords: foreign key application_passwords_user_id_fkey (user_id) REFERENCES users (id) ON DELETE CASCADE ON UPDATE CASCADE is missing from the database",
          "table scratch_notes is in the database but not in the schema",
        ].toSorted(),
      );
    });
  });

  it("reports a model that no migration creates", async () => {
    const schemaPath = path.join(tmp, "schema.prisma");
    const extraModel = `
model AuditEntry {
  id   Int    @id @default(autoincrement())
  note String @db.VarChar(200)

  @@map("audit_entries")
}
`;
    writeFileSync(schemaPath, readFileSync(DEFAULT_SCHEMA_PATH, "utf8") + extraModel);
    expect(await findDrift(testDatabaseUrl(), schemaPath)).toEqual(["table audit_entries is missing from the database"]);
  });

  // The project's own schema uses few types; this pins the mapping of the rest to Prisma's MySQL DDL.
  it("maps every scalar, native type, default and key the way Prisma's MySQL DDL creates them", async () => {
    const schemaPath = path.join(tmp, "types.prisma");
    writeFileSync(
      schemaPath,
      `datasource db {
  provider = "mysql"
}

enum Status {
  open
  closed @map("CLOSED")
}

model Item {
  id       BigInt   @id @default(autoincrement()) @db.UnsignedBigInt
  code     String   @map("item_code") @db.VarChar(20)
  name     String
  amount   Decimal  @default(1.5) @db.Decimal(10, 2)
  price    Decimal
  data     Json?
  blob     Bytes
  flag     Boolean  @default(true)
  status   Status   @default(closed)
  ratio    Float    @default(0)
  small    Int      @default(-3) @db.SmallInt
  tiny     Int      @db.TinyInt
  count    Int      @db.UnsignedInt
  day      DateTime @db.Date
  stamped  DateTime @default(now()) @db.Timestamp(0)
  body     String   @db.Text
  note     String   @default("it's")
  token    String   @default(dbgenerated("(uuid())")) @db.Char(36)
  parts    Part[]

  @@unique([code, small], map: "item_code_small")
  @@index([tiny(sort: Desc), count])
  @@index([body(length: 10)], map: "item_body_prefix")
  @@map("items")
}

model Part {
  x      Int
  y      Int
  itemId BigInt? @map("item_id") @db.UnsignedBigInt
  item   Item?   @relation(fields: [itemId], references: [id], onUpdate: Restrict, map: "part_item")

  @@id([x, y])
  @@unique([y, x])
}
`,
    );
    const ddl = `
CREATE TABLE \`items\` (
    \`id\` BIGINT UNSIGNED NOT NULL AUTO_INCREMENT,
    \`item_code\` VARCHAR(20) NOT NULL,
    \`name\` VARCHAR(191) NOT NULL,
    \`amount\` DECIMAL(10, 2) NOT NULL DEFAULT 1.5,
    \`price\` DECIMAL(65, 30) NOT NULL,
    \`data\` JSON NULL,
    \`blob\` LONGBLOB NOT NULL,
    \`flag\` BOOLEAN NOT NULL DEFAULT true,
    \`status\` ENUM('open', 'CLOSED') NOT NULL DEFAULT 'CLOSED',
    \`ratio\` DOUBLE NOT NULL DEFAULT 0,
    \`small\` SMALLINT NOT NULL DEFAULT -3,
    \`tiny\` TINYINT NOT NULL,
    \`count\` INTEGER UNSIGNED NOT NULL,
    \`day\` DATE NOT NULL,
    \`stamped\` TIMESTAMP(0) NOT NULL DEFAULT CURRENT_TIMESTAMP(0),
    \`body\` TEXT NOT NULL,
    \`note\` VARCHAR(191) NOT NULL DEFAULT 'it''s',
    \`token\` CHAR(36) NOT NULL DEFAULT (uuid()),

    UNIQUE INDEX \`item_code_small\`(\`item_code\`, \`small\`),
    INDEX \`items_tiny_count_idx\`(\`tiny\` DESC, \`count\`),
    INDEX \`item_body_prefix\`(\`body\`(10)),
    PRIMARY KEY (\`id\`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

CREATE TABLE \`Part\` (
    \`x\` INTEGER NOT NULL,
    \`y\` INTEGER NOT NULL,
    \`item_id\` BIGINT UNSIGNED NULL,

    UNIQUE INDEX \`Part_y_x_key\`(\`y\`, \`x\`),
    PRIMARY KEY (\`x\`, \`y\`)
) DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

ALTER TABLE \`Part\` ADD CONSTRAINT \`part_item\` FOREIGN KEY (\`item_id\`) REFERENCES \`items\`(\`id\`) ON DELETE SET NULL ON UPDATE RESTRICT;
`;
    await dropDatabase(typesUrl);
    await migrate(typesUrl, { dir: migrationsDir("types", { "20260101000000_init": ddl }, false) });
    expect(await findDrift(typesUrl, schemaPath)).toEqual([]);

    const breakage = `
ALTER TABLE \`items\` MODIFY \`status\` ENUM('open', 'closed') NOT NULL DEFAULT 'open';
ALTER TABLE \`items\` MODIFY \`amount\` DECIMAL(10, 3) NOT NULL DEFAULT 1.5;
ALTER TABLE \`items\` MODIFY \`count\` INTEGER NOT NULL;
ALTER TABLE \`Part\` DROP FOREIGN KEY \`part_item\`;
ALTER TABLE \`Part\` ADD CONSTRAINT \`part_item\` FOREIGN KEY (\`item_id\`) REFERENCES \`items\`(\`id\`) ON DELETE CASCADE ON UPDATE RESTRICT;
`;
    await migrate(typesUrl, {
      dir: migrationsDir("types", { "20260101000001_break": breakage }, false),
    });
    expect((await findDrift(typesUrl, schemaPath)).toSorted()).toEqual(
      [
        "table items: column status is ENUM('open','CLOSED') in the schema but ENUM('open','closed') in the database",
        "table items: column status is DEFAULT 'CLOSED' in the schema but DEFAULT 'open' in the database",
        "table items: column amount is DECIMAL(10,2) in the schema but DECIMAL(10,3) in the database",
        "table items: column count is INT UNSIGNED in the schema but INT in the database",
        "table Part: foreign key part_item is (item_id) REFERENCES items (id) ON DELETE SET NULL ON UPDATE RESTRICT in the schema but (item_id) REFERENCES items (id) ON DELETE CASCADE ON UPDATE RESTRICT in the database",
      ].toSorted(),
    );
  });
});

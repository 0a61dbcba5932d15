import { readFileSync } from "node:fs";
import path from "node:path";
import { get_dmmf } from "@prisma/prisma-schema-wasm";
import mariadb from "mariadb";
import { connectionOptions } from "./apply.ts";

/**
 * Compares a migrated database with schema.prisma, since Prisma's own
 * `migrate diff` needs the schema engine, which cannot run here. The schema
 * side is rendered the way Prisma's MySQL DDL would create it; the database
 * side is read from MariaDB's information_schema. Both become a `Schema` and
 * are compared table by table.
 */

export const DEFAULT_SCHEMA_PATH = path.resolve(import.meta.dirname, "../../prisma/schema.prisma");

// Tables the schema does not describe but the tooling owns.
const IGNORED_TABLES = new Set(["_prisma_migrations"]);

// MySQL's identifier limit, which Prisma's default constraint names are cut to.
const MAX_IDENTIFIER_LENGTH = 64;

type ColumnDefault =
  | { kind: "none" | "now" }
  | { kind: "value"; value: string | number }
  | { kind: "expression"; sql: string };

interface Column {
  type: string;
  nullable: boolean;
  autoincrement: boolean;
  default: ColumnDefault;
}

interface Index {
  kind: "PRIMARY KEY" | "UNIQUE" | "INDEX" | "FULLTEXT";
  columns: string[];
}

interface ForeignKey {
  columns: string[];
  referencedTable: string;
  referencedColumns: string[];
  onDelete: string;
  onUpdate: string;
}

interface Table {
  columns: Map<string, Column>;
  indexes: Map<string, Index>;
  foreignKeys: Map<string, ForeignKey>;
}

type Schema = Map<string, Table>;

/** Lines describing each difference between the database and the schema; empty when they agree. */
export async function findDrift(databaseUrl: string, schemaPath = DEFAULT_SCHEMA_PATH): Promise<string[]> {
  const expected = schemaFromPrisma(readFileSync(schemaPath, "utf8"), schemaPath);
  const actual = await schemaFromDatabase(databaseUrl);
  return compareSchemas(expected, actual);
}

// ---- schema.prisma side ----------------------------------------------------

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "object" | "enum" | "unsupported";
  isRequired: boolean;
  type: string;
  nativeType?: [string, string[]] | null;
  default?: { name: string; args: unknown[] } | string | number | boolean;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}

interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}

interface DmmfEnum {
  name: string;
  values: { name: string; dbName: string | null }[];
}

interface DmmfIndex {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string;
  fields: { name: string; sortOrder?: "asc" | "desc"; length?: number }[];
}

interface Datamodel {
  models: DmmfModel[];
  enums: DmmfEnum[];
  indexes: DmmfIndex[];
}

function readDatamodel(schemaText: string, schemaPath: string): Datamodel {
  try {
    return (JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: schemaText }))) as { datamodel: Datamodel }).datamodel;
  } catch (error) {
    throw new Error(`${schemaPath} is not a valid Prisma schema:\n${engineMessage(error)}`, { cause: error });
  }
}

// The engine reports validation errors as JSON {"error_code", "message"}.
function engineMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  try {
    return (JSON.parse(text) as { message: string }).message;
  } catch {
    return text;
  }
}

// get_dmmf leaves out @relation(map: "..."), so custom foreign key names are read from the text.
function customForeignKeyNames(schemaText: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const [, model, body = ""] of schemaText.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
    for (const [, field, args = ""] of body.matchAll(/^\s*(\w+)\s.*@relation\(([^)]*)\)/gm)) {
      const name = /\bmap:\s*"([^"]+)"/.exec(args)?.[1];
      if (name) names.set(`${model}.${field}`, name);
    }
  }
  return names;
}

function schemaFromPrisma(schemaText: string, schemaPath: string): Schema {
  const datamodel = readDatamodel(schemaText, schemaPath);
  const fkNames = customForeignKeyNames(schemaText);
  const models = new Map(datamodel.models.map((model) => [model.name, model]));
  const enums = new Map(datamodel.enums.map((e) => [e.name, e]));
  const tableName = (model: DmmfModel) => model.dbName ?? model.name;
  const columnName = (model: DmmfModel, fieldName: string) => {
    const field = model.fields.find((f) => f.name === fieldName);
    return field?.dbName ?? fieldName;
  };

  const schema: Schema = new Map();
  for (const model of datamodel.models) {
    const table = tableName(model);
    const columns = new Map<string, Column>();
    const foreignKeys = new Map<string, ForeignKey>();
    for (const field of model.fields) {
      if (field.kind === "scalar" || field.kind === "enum") {
        const enumDef = field.kind === "enum" ? enums.get(field.type) : undefined;
        columns.set(field.dbName ?? field.name, {
          type: normalizeColumnType(prismaColumnType(field, enumDef)),
          nullable: !field.isRequired,
          autoincrement: typeof field.default === "object" && field.default.name === "autoincrement",
          default: prismaDefault(field, enumDef),
        });
      }
      // Only the side of a relation that lists `fields:` holds the foreign key.
      const target = models.get(field.type);
      if (field.kind === "object" && target && field.relationFromFields?.length) {
        const columnNames = field.relationFromFields.map((name) => columnName(model, name));
        foreignKeys.set(fkNames.get(`${model.name}.${field.name}`) ?? constraintName(table, columnNames, "_fkey"), {
          columns: columnNames,
          referencedTable: tableName(target),
          referencedColumns: (field.relationToFields ?? []).map((name) => columnName(target, name)),
          // Prisma's defaults: Restrict for required relations, SetNull for optional ones; Cascade on update.
          onDelete: referentialAction(field.relationOnDelete ?? (field.isRequired ? "Restrict" : "SetNull")),
          onUpdate: referentialAction(field.relationOnUpdate ?? "Cascade"),
        });
      }
    }
    const indexes = new Map<string, Index>();
    for (const index of datamodel.indexes.filter((i) => i.model === model.name)) {
      const columnNames = index.fields.map((f) => columnName(model, f.name));
      const kind = ({ id: "PRIMARY KEY", unique: "UNIQUE", normal: "INDEX", fulltext: "FULLTEXT" } as const)[index.type];
      // MySQL always names the primary key PRIMARY; fulltext indexes take the _idx suffix like plain ones.
      const name =
        kind === "PRIMARY KEY"
          ? "PRIMARY"
          : (index.dbName ?? constraintName(table, columnNames, kind === "UNIQUE" ? "_key" : "_idx"));
      indexes.set(name, {
        kind,
        columns: index.fields.map((f) => indexColumn(columnName(model, f.name), f.length ?? null, f.sortOrder === "desc")),
      });
    }
    schema.set(table, { columns, indexes, foreignKeys });
  }
  return schema;
}

// Prisma's default names: <table>_<columns>_<suffix>, cut to fit MySQL's identifier limit.
function constraintName(table: string, columns: string[], suffix: string): string {
  return `${table}_${columns.join("_")}`.slice(0, MAX_IDENTIFIER_LENGTH - suffix.length) + suffix;
}

// Cascade -> CASCADE, SetNull -> SET NULL, NoAction -> NO ACTION, as information_schema spells them.
function referentialAction(action: string): string {
  return action.replace(/(?<=.)([A-Z])/g, " $1").toUpperCase();
}

const DEFAULT_COLUMN_TYPES: Record<string, string> = {
  Int: "INT",
  BigInt: "BIGINT",
  Float: "DOUBLE",
  Decimal: "DECIMAL(65,30)",
  Boolean: "TINYINT(1)",
  String: "VARCHAR(191)",
  DateTime: "DATETIME(3)",
  Json: "JSON",
  Bytes: "LONGBLOB",
};

function prismaColumnType(field: DmmfField, enumDef: DmmfEnum | undefined): string {
  if (enumDef) {
    return `ENUM(${enumDef.values.map((v) => `'${(v.dbName ?? v.name).replace(/'/g, "''")}'`).join(",")})`;
  }
  if (!field.nativeType) return DEFAULT_COLUMN_TYPES[field.type] ?? field.type.toUpperCase();
  const [name, args] = field.nativeType;
  // A Boolean stored as @db.TinyInt is still created as TINYINT(1).
  if (field.type === "Boolean" && name === "TinyInt") return "TINYINT(1)";
  // @db.UnsignedBigInt -> BIGINT UNSIGNED, @db.VarChar(60) -> VARCHAR(60), @db.Decimal(10, 2) -> DECIMAL(10,2).
  const unsigned = name.startsWith("Unsigned");
  const base = (unsigned ? name.slice("Unsigned".length) : name).toUpperCase();
  return `${base}${args.length ? `(${args.join(",")})` : ""}${unsigned ? " UNSIGNED" : ""}`;
}

function prismaDefault(field: DmmfField, enumDef: DmmfEnum | undefined): ColumnDefault {
  const value = field.default;
  if (value === undefined) return { kind: "none" };
  if (typeof value === "object") {
    if (value.name === "now") return { kind: "now" };
    if (value.name === "dbgenerated") return { kind: "expression", sql: String(value.args[0] ?? "") };
    // autoincrement() is AUTO_INCREMENT, not a default; uuid(), cuid() and the like are filled in by the client.
    return { kind: "none" };
  }
  if (typeof value === "boolean") return { kind: "value", value: value ? 1 : 0 };
  if (enumDef) return { kind: "value", value: enumDef.values.find((v) => v.name === value)?.dbName ?? String(value) };
  // MariaDB renders DateTime literals in its own format, so only their presence is compared.
  if (field.type === "DateTime") return { kind: "expression", sql: `'${value}'` };
  return { kind: "value", value };
}

// ---- database side ---------------------------------------------------------

interface ColumnRow {
  TABLE_NAME: string;
  COLUMN_NAME: string;
  COLUMN_TYPE: string;
  IS_NULLABLE: "YES" | "NO";
  COLUMN_DEFAULT: string | null;
  EXTRA: string;
}

interface IndexRow {
  TABLE_NAME: string;
  INDEX_NAME: string;
  NON_UNIQUE: number | bigint;
  COLUMN_NAME: string;
  SUB_PART: number | bigint | null;
  COLLATION: string | null;
  INDEX_TYPE: string;
}

interface ForeignKeyRow {
  TABLE_NAME: string;
  CONSTRAINT_NAME: string;
  COLUMN_NAME: string;
  REFERENCED_TABLE_NAME: string;
  REFERENCED_COLUMN_NAME: string;
  DELETE_RULE: string;
  UPDATE_RULE: string;
}

async function schemaFromDatabase(databaseUrl: string): Promise<Schema> {
  const options = connectionOptions(databaseUrl);
  const conn = await mariadb.createConnection(options);
  try {
    const db = [options.database];
    const tables = (await conn.query(
      "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE'",
      db,
    )) as { TABLE_NAME: string }[];
    const columns = (await conn.query(
      `SELECT TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, EXTRA
       FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, ORDINAL_POSITION`,
      db,
    )) as ColumnRow[];
    const indexColumns = (await conn.query(
      `SELECT TABLE_NAME, INDEX_NAME, NON_UNIQUE, COLUMN_NAME, SUB_PART, COLLATION, INDEX_TYPE
       FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? ORDER BY TABLE_NAME, INDEX_NAME, SEQ_IN_INDEX`,
      db,
    )) as IndexRow[];
    const fkColumns = (await conn.query(
      `SELECT k.TABLE_NAME, k.CONSTRAINT_NAME, k.COLUMN_NAME, k.REFERENCED_TABLE_NAME, k.REFERENCED_COLUMN_NAME,
              r.DELETE_RULE, r.UPDATE_RULE
       FROM information_schema.KEY_COLUMN_USAGE k
       JOIN information_schema.REFERENTIAL_CONSTRAINTS r
         ON r.CONSTRAINT_SCHEMA = k.CONSTRAINT_SCHEMA AND r.TABLE_NAME = k.TABLE_NAME AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME
       WHERE k.TABLE_SCHEMA = ? ORDER BY k.TABLE_NAME, k.CONSTRAINT_NAME, k.ORDINAL_POSITION`,
      db,
    )) as ForeignKeyRow[];

    const schema: Schema = new Map(
      tables.map(({ TABLE_NAME }) => [TABLE_NAME, { columns: new Map(), indexes: new Map(), foreignKeys: new Map() }]),
    );
    for (const row of columns) {
      schema.get(row.TABLE_NAME)?.columns.set(row.COLUMN_NAME, {
        type: normalizeColumnType(row.COLUMN_TYPE),
        nullable: row.IS_NULLABLE === "YES",
        autoincrement: row.EXTRA.includes("auto_increment"),
        default: databaseDefault(row.COLUMN_DEFAULT),
      });
    }
    for (const row of fkColumns) {
      const foreignKeys = schema.get(row.TABLE_NAME)?.foreignKeys;
      const fk = foreignKeys?.get(row.CONSTRAINT_NAME) ?? {
        columns: [],
        referencedTable: row.REFERENCED_TABLE_NAME,
        referencedColumns: [],
        onDelete: row.DELETE_RULE,
        onUpdate: row.UPDATE_RULE,
      };
      fk.columns.push(row.COLUMN_NAME);
      fk.referencedColumns.push(row.REFERENCED_COLUMN_NAME);
      foreignKeys?.set(row.CONSTRAINT_NAME, fk);
    }
    for (const row of indexColumns) {
      const table = schema.get(row.TABLE_NAME);
      // MySQL creates an index named after a foreign key that has none to use; Prisma ignores it too.
      if (!table || table.foreignKeys.has(row.INDEX_NAME)) continue;
      const index = table.indexes.get(row.INDEX_NAME) ?? { kind: indexKind(row), columns: [] };
      index.columns.push(indexColumn(row.COLUMN_NAME, row.SUB_PART === null ? null : Number(row.SUB_PART), row.COLLATION === "D"));
      table.indexes.set(row.INDEX_NAME, index);
    }
    return schema;
  } finally {
    await conn.end();
  }
}

function indexKind(row: IndexRow): Index["kind"] {
  if (row.INDEX_NAME === "PRIMARY") return "PRIMARY KEY";
  if (row.INDEX_TYPE === "FULLTEXT") return "FULLTEXT";
  return Number(row.NON_UNIQUE) === 0 ? "UNIQUE" : "INDEX";
}

// MariaDB quotes literal defaults ('x'), leaves numbers and expressions bare, and reports
// a nullable column without a default as the text NULL.
function databaseDefault(raw: string | null): ColumnDefault {
  if (raw === null || raw === "NULL") return { kind: "none" };
  if (/^current_timestamp\b/i.test(raw)) return { kind: "now" };
  const quoted = /^'([\s\S]*)'$/.exec(raw);
  if (quoted) return { kind: "value", value: (quoted[1] ?? "").replace(/''/g, "'").replace(/\\(.)/g, "$1") };
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(raw)) return { kind: "value", value: Number(raw) };
  return { kind: "expression", sql: raw };
}

// ---- shared ----------------------------------------------------------------

const INTEGER_TYPES = new Set(["TINYINT", "SMALLINT", "MEDIUMINT", "INT", "BIGINT", "YEAR"]);
const TEMPORAL_TYPES = new Set(["DATETIME", "TIMESTAMP", "TIME"]);

/**
 * One spelling for both sides: upper-case keywords, no integer display widths
 * (MariaDB reports int(11)) except TINYINT(1), Prisma's Boolean, and no (0)
 * fractional precision, which MariaDB omits.
 */
function normalizeColumnType(type: string): string {
  const [, word = type, args = "", rest = ""] = /^(\w+)(\(.*\))?(.*)$/s.exec(type) ?? [];
  const keyword = word.toUpperCase();
  const dropArgs =
    (INTEGER_TYPES.has(keyword) && !(keyword === "TINYINT" && args === "(1)")) ||
    (TEMPORAL_TYPES.has(keyword) && args === "(0)");
  return `${keyword}${dropArgs ? "" : args}${rest.toUpperCase().replace(/\s+/g, " ").trimEnd()}`;
}

function indexColumn(column: string, length: number | null, descending: boolean): string {
  return `${column}${length === null ? "" : `(${length})`}${descending ? " DESC" : ""}`;
}

function compareSchemas(expected: Schema, actual: Schema): string[] {
  const drift: string[] = [];
  for (const [name, table] of expected) {
    const found = actual.get(name);
    if (found) compareTables(`table ${name}`, table, found, drift);
    else drift.push(`table ${name} is missing from the database`);
  }
  for (const name of actual.keys()) {
    if (!expected.has(name) && !IGNORED_TABLES.has(name)) drift.push(`table ${name} is in the database but not in the schema`);
  }
  return drift;
}

function compareTables(scope: string, expected: Table, actual: Table, drift: string[]): void {
  for (const [name, column] of expected.columns) {
    const found = actual.columns.get(name);
    if (found) compareColumns(`${scope}: column ${name}`, column, found, drift);
    else drift.push(`${scope}: column ${name} is missing from the database`);
  }
  for (const name of actual.columns.keys()) {
    if (!expected.columns.has(name)) drift.push(`${scope}: column ${name} is in the database but not in the schema`);
  }
  compareNamed(scope, "index", expected.indexes, actual.indexes, describeIndex, drift);
  compareNamed(scope, "foreign key", expected.foreignKeys, actual.foreignKeys, describeForeignKey, drift);
}

function compareColumns(scope: string, expected: Column, actual: Column, drift: string[]): void {
  const differs = (schema: string, database: string) =>
    drift.push(`${scope} is ${schema} in the schema but ${database} in the database`);
  // MariaDB has no JSON type: it creates LONGTEXT with a json_valid() CHECK.
  if (expected.type !== actual.type && !(expected.type === "JSON" && actual.type === "LONGTEXT")) {
    differs(expected.type, actual.type);
  }
  const nullability = (column: Column) => (column.nullable ? "NULL" : "NOT NULL");
  if (expected.nullable !== actual.nullable) differs(nullability(expected), nullability(actual));
  const increment = (column: Column) => (column.autoincrement ? "AUTO_INCREMENT" : "not AUTO_INCREMENT");
  if (expected.autoincrement !== actual.autoincrement) differs(increment(expected), increment(actual));
  if (!sameDefault(expected.default, actual.default)) {
    differs(describeDefault(expected.default), describeDefault(actual.default));
  }
}

function sameDefault(expected: ColumnDefault, actual: ColumnDefault): boolean {
  switch (expected.kind) {
    case "expression":
      // dbgenerated(...) text rarely matches what the database echoes back; require only that there is one.
      return actual.kind !== "none";
    case "value":
      return (
        actual.kind === "value" &&
        (typeof expected.value === "number" ? Number(actual.value) === expected.value : actual.value === expected.value)
      );
    default:
      return actual.kind === expected.kind;
  }
}

function describeDefault(value: ColumnDefault): string {
  switch (value.kind) {
    case "none":
      return "without DEFAULT";
    case "now":
      return "DEFAULT CURRENT_TIMESTAMP";
    case "value":
      return typeof value.value === "number" ? `DEFAULT ${value.value}` : `DEFAULT '${value.value.replace(/'/g, "''")}'`;
    case "expression":
      return `DEFAULT ${value.sql}`;
  }
}

function describeIndex(index: Index): string {
  return `${index.kind} (${index.columns.join(", ")})`;
}

function describeForeignKey(fk: ForeignKey): string {
  return `(${fk.columns.join(", ")}) REFERENCES ${fk.referencedTable} (${fk.referencedColumns.join(", ")}) ON DELETE ${fk.onDelete} ON UPDATE ${fk.onUpdate}`;
}

// Indexes and foreign keys are identified by name; anything else about them is compared through their description.
function compareNamed<T>(
  scope: string,
  noun: string,
  expected: Map<string, T>,
  actual: Map<string, T>,
  describe: (item: T) => string,
  drift: string[],
): void {
  for (const [name, item] of expected) {
    const found = actual.get(name);
    if (!found) drift.push(`${scope}: ${noun} ${name} ${describe(item)} is missing from the database`);
    else if (describe(found) !== describe(item)) {
      drift.push(`${scope}: ${noun} ${name} is ${describe(item)} in the schema but ${describe(found)} in the database`);
    }
  }
  for (const [name, item] of actual) {
    if (!expected.has(name)) drift.push(`${scope}: ${noun} ${name} ${describe(item)} is in the database but not in the schema`);
  }
}

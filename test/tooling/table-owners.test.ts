import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.ts";

// Every table has one owning domain, declared once: the `/// owner: <domain>` line above its model in
// prisma/schema.prisma (docs/architecture.md, "Who owns which table"). Only code under
// packages/domains/src/<owner>/ reads or writes it. Routes, CLI commands and job processors call the
// domain; they hold no Prisma or SQL of their own. Benchmarks and scripts seed their worlds through
// one module; everywhere else in them only reads.

interface Model {
  /** Prisma's accessor: `prisma.siteApiKey` for model SiteApiKey. */
  accessor: string;
  table: string;
  owner: string | undefined;
}

function schemaModels(): Model[] {
  const schema = readFileSync(join(ROOT, "prisma/schema.prisma"), "utf8");
  return [...schema.matchAll(/((?:^\/\/\/.*\n)*)^model (\w+) \{([\s\S]*?)^\}/gm)].map(([, doc, model, body]) => ({
    accessor: model![0]!.toLowerCase() + model!.slice(1),
    table: /@@map\("(\w+)"\)/.exec(body!)?.[1] ?? model!,
    owner: /^\/\/\/ owner: ([\w-]+)$/m.exec(doc!)?.[1],
  }));
}

const MODELS = schemaModels();
/** The owner of the platform's own tables (the database's identity), read by platform code before any domain runs. */
const PLATFORM = "platform";
const OWNERS = new Map(MODELS.map((model) => [model.table, model.owner]));
const TABLE_OF_ACCESSOR = new Map(MODELS.map((model) => [model.accessor, model.table]));

/**
 * The reads that join another domain's table only to label their rows (docs/architecture.md): each is
 * `<file>: <table>` with the reason. Such a join never filters by the table nor writes it.
 */
const LABEL_JOINS: Record<string, string> = {
  "packages/domains/src/orders/intake-report.ts: sites": "the daily intake report names each row's site (s.name beside o.site_id, which groups)",
};

/** The one module outside the domains that writes rows in bulk: the worlds benchmarks and scripts run in. */
const SEED_MODULE = "scripts/support/seed.ts";

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === "node_modules" || name === "generated" || name === "dist") continue;
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts") && !name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

function read(paths: string[]): { path: string; text: string }[] {
  return paths.map((path) => ({ path: relative(ROOT, path).split(sep).join("/"), text: readFileSync(path, "utf8") }));
}

const PACKAGES = join(ROOT, "packages");
const files = read(
  readdirSync(PACKAGES).flatMap((pkg) => {
    const src = join(PACKAGES, pkg, "src");
    try {
      return sourceFiles(src);
    } catch {
      return [];
    }
  }),
);
const benchAndScripts = read([...sourceFiles(join(ROOT, "bench")), ...sourceFiles(join(ROOT, "scripts"))]);

const READS = ["findMany", "findFirst", "findFirstOrThrow", "findUnique", "findUniqueOrThrow", "count", "aggregate", "groupBy"];
const WRITES = ["create", "createMany", "createManyAndReturn", "update", "updateMany", "updateManyAndReturn", "upsert", "delete", "deleteMany"];
const prismaCall = (methods: string[]) => new RegExp(String.raw`\b\w+\.(\w+)\.(?:${methods.join("|")})\b`, "g");

/**
 * The tables a piece of SQL names, with the clause naming each: whatever its string is handed to
 * (`$queryRaw`, `$executeRaw`, the driver pool's helpers, a connection's `query`), and subqueries too.
 * `FROM a x, b y` names both a and b.
 */
function sqlTables(text: string): { clause: "read" | "join" | "write"; table: string }[] {
  const found: { clause: "read" | "join" | "write"; table: string }[] = [];
  for (const [, keyword, list] of text.matchAll(/\b(DELETE\s+FROM|FROM|JOIN|INSERT\s+(?:IGNORE\s+)?INTO|REPLACE\s+INTO|UPDATE)\s+(`?\w+`?(?:\s+(?:AS\s+)?\w+)?(?:\s*,\s*`?\w+`?(?:\s+(?:AS\s+)?\w+)?)*)/g)) {
    const clause = keyword === "FROM" ? "read" : keyword === "JOIN" ? "join" : "write";
    for (const ref of list!.split(",")) found.push({ clause, table: ref.trim().split(/\s+/)[0]!.replaceAll("`", "") });
  }
  return found.filter(({ table }) => OWNERS.has(table));
}

/** The domain folder a file belongs to: packages/domains/src/<domain>/..., or the platform's own plumbing; undefined elsewhere. */
function domainOf(path: string): string | undefined {
  if (path.startsWith("packages/platform/src/")) return PLATFORM;
  return /^packages\/domains\/src\/([\w-]+)\//.exec(path)?.[1];
}

const ADAPTERS = [/^packages\/api\/src\/routes\//, /^packages\/api\/src\/cli\//, /^packages\/worker\/src\/jobs\//];
// A use of the client (`prisma.order`, `ctx.prisma.$transaction`), not its name: an adapter names the
// connections it hands its use case (`Pick<JobContext, "prisma" | ...>`, `{ prisma, log }`).
const DATABASE_ACCESS = /\bprisma\s*[.[]|\bPrismaClient\b|\bPrisma\.|\$queryRaw|\$executeRaw|\$transaction|\bSqlPool\b|\bsql\.(?:query|execute|batch|getConnection)\b/;

/** Code outside the owner that reads or writes a table: `<file>: <table> (owner <domain>)`. */
function offencesOf(file: { path: string; text: string }): string[] {
  const domain = domainOf(file.path);
  const offences: string[] = [];
  const offence = (table: string) => `${file.path}: ${table} (owner ${OWNERS.get(table)})`;
  for (const [, accessor] of file.text.matchAll(prismaCall([...READS, ...WRITES]))) {
    const table = TABLE_OF_ACCESSOR.get(accessor!);
    if (table && OWNERS.get(table) !== domain) offences.push(offence(table));
  }
  for (const { clause, table } of sqlTables(file.text)) {
    if (OWNERS.get(table) === domain) continue;
    if (clause === "join" && LABEL_JOINS[`${file.path}: ${table}`]) continue;
    offences.push(offence(table));
  }
  return offences;
}

/** The owners docs/architecture.md's table lists: domain to its tables, sorted. */
function documentedOwners(): Record<string, string[]> {
  const doc = readFileSync(join(ROOT, "docs/architecture.md"), "utf8");
  const section = /^## Who owns which table\n([\s\S]*?)^## /m.exec(doc)?.[1] ?? "";
  const rows = [...section.matchAll(/^\| ([\w-]+) \| ([\w, ]+) \|$/gm)].filter(([, domain]) => domain !== "domain");
  return Object.fromEntries(rows.map(([, domain, tables]) => [domain!, tables!.split(",").map((table) => table.trim()).sort()]));
}

describe("who owns which table", () => {
  it("names an owning domain (or the platform) for every table of the schema", () => {
    const domains = [...readdirSync(join(ROOT, "packages/domains/src")), PLATFORM];
    const unowned = MODELS.filter((model) => !model.owner || !domains.includes(model.owner)).map((model) => `${model.table}: ${model.owner ?? "no owner"}`);
    expect(unowned).toEqual([]);
  });

  it("lists in docs/architecture.md exactly the owners the schema declares", () => {
    const declared: Record<string, string[]> = {};
    for (const model of MODELS) (declared[model.owner ?? "?"] ??= []).push(model.table);
    for (const tables of Object.values(declared)) tables.sort();
    expect(documentedOwners()).toEqual(declared);
  });

  it("keeps Prisma and SQL out of routes, CLI commands and job processors", () => {
    const offenders = files.filter((file) => ADAPTERS.some((adapter) => adapter.test(file.path)) && DATABASE_ACCESS.test(file.text)).map((file) => file.path);
    expect(offenders).toEqual([]);
  });

  it("lets only a table's owning domain read or write it, and another domain join it only to label rows", () => {
    const offences = files.filter((file) => !ADAPTERS.some((adapter) => adapter.test(file.path))).flatMap(offencesOf);
    expect([...new Set(offences)]).toEqual([]);
  });

  it("sees a JOIN, a subquery and a comma join of another domain's table", () => {
    const file = (text: string) => ({ path: "packages/domains/src/orders/example.ts", text });
    expect(offencesOf(file("`SELECT o.number FROM orders o JOIN sites s ON s.id = o.site_id`"))).toEqual(["packages/domains/src/orders/example.ts: sites (owner sites)"]);
    expect(offencesOf(file("$queryRaw`SELECT id FROM orders WHERE site_id IN (SELECT id FROM sites)`"))).toEqual(["packages/domains/src/orders/example.ts: sites (owner sites)"]);
    expect(offencesOf(file("sqlQuery(deps, `SELECT 1 FROM orders o, sites s`)"))).toEqual(["packages/domains/src/orders/example.ts: sites (owner sites)"]);
    expect(offencesOf(file("`UPDATE `items` SET stock = 0`"))).toEqual(["packages/domains/src/orders/example.ts: items (owner inventory)"]);
  });

  it("lets benchmarks and scripts write rows only through the seeding module", () => {
    const writes = prismaCall(WRITES);
    const offenders = benchAndScripts
      .filter((file) => file.path !== SEED_MODULE)
      .flatMap((file) => [
        ...[...file.text.matchAll(writes)].map(([, accessor]) => TABLE_OF_ACCESSOR.get(accessor!)).filter((table) => table !== undefined),
        ...sqlTables(file.text).filter(({ clause }) => clause === "write").map(({ table }) => table),
      ].map((table) => `${file.path}: ${table}`));
    expect([...new Set(offenders)]).toEqual([]);
  });
});

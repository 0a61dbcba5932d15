import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../support/processes.ts";

// Every table has one owning domain (docs/architecture.md, "Who owns which table"): only code under
// packages/domains/src/<owner>/ reads or writes it. Routes, CLI commands and job processors call the
// domain; they hold no Prisma or SQL of their own.
export const TABLE_OWNERS: Record<string, string> = {
  users: "identity",
  application_passwords: "identity",
  ticket_bridge_secrets: "identity",
  sites: "sites",
  site_api_keys: "sites",
  carrier_mappings: "sites",
  sync_runs: "sites",
  sync_credential_failures: "sites",
  orders: "orders",
  order_lines: "orders",
  order_addresses: "orders",
  sync_errors: "sites",
  items: "inventory",
  item_history: "inventory",
  webhook_events: "webhooks",
  merchant_accounts: "disputes",
  dispute_linkages: "disputes",
  chargebacks: "disputes",
  shipment_records: "tracking",
  image_api_keys: "images",
  serial_numbers: "images",
  item_reviews: "reviews",
  reports: "reports",
  options: "options",
  organisations: "tickets",
  staff: "tickets",
  staff_recipient_changes: "tickets",
  tickets: "tickets",
  ticket_entries: "tickets",
  ticket_changes: "tickets",
  urgency_queue: "urgency",
  ai_snapshots: "urgency",
  ai_history: "urgency",
  staff_notifications: "notifications",
  operator_alerts: "notifications",
  staff_oauth_connections: "timetracking",
  time_logs: "timetracking",
  project_time_entries: "timetracking",
  time_events: "timetracking",
  harvest_clients: "timetracking",
  harvest_projects: "timetracking",
  harvest_tasks: "timetracking",
  harvest_task_assignments: "timetracking",
  harvest_time_entries: "timetracking",
  milestone_alerts: "timetracking",
  managed_sites: "managed-sites",
  costs: "managed-sites",
  site_costs: "managed-sites",
  licenses: "managed-sites",
  knowledge_vectors: "knowledge",
  knowledge_documents: "knowledge",
  assistant_conversations: "knowledge",
  assistant_messages: "knowledge",
};

/** Prisma's model accessor for each table (`prisma.siteApiKey` is `site_api_keys`), read from the schema. */
function modelTables(): Map<string, string> {
  const schema = readFileSync(join(ROOT, "prisma/schema.prisma"), "utf8");
  const tables = new Map<string, string>();
  for (const [, model, body] of schema.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)) {
    const table = /@@map\("(\w+)"\)/.exec(body!)?.[1] ?? model!;
    tables.set(model![0]!.toLowerCase() + model!.slice(1), table);
  }
  return tables;
}

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

const PACKAGES = join(ROOT, "packages");
const files = readdirSync(PACKAGES)
  .flatMap((pkg) => {
    const src = join(PACKAGES, pkg, "src");
    try {
      return sourceFiles(src);
    } catch {
      return [];
    }
  })
  .map((path) => ({ path: relative(ROOT, path).split(sep).join("/"), text: readFileSync(path, "utf8") }));

const PRISMA_CALL = /\b(\w+)\.(\w+)\.(?:findMany|findFirst|findFirstOrThrow|findUnique|findUniqueOrThrow|create|createMany|createManyAndReturn|update|updateMany|upsert|delete|deleteMany|count|aggregate|groupBy)\b/g;
// The table a statement reads or writes: what follows FROM, INTO, UPDATE or DELETE FROM (a JOIN that only labels rows is allowed).
const SQL_TABLE = /\b(?:FROM|INTO|UPDATE)\s+`?(\w+)`?/g;

/** The domain folder a file belongs to: packages/domains/src/<domain>/...; undefined for platform, providers and adapters. */
function domainOf(path: string): string | undefined {
  const match = /^packages\/domains\/src\/([\w-]+)\//.exec(path);
  if (!match || ["platform", "providers", "generated"].includes(match[1]!)) return undefined;
  return match[1];
}

const ADAPTERS = [/^packages\/api\/src\/routes\//, /^packages\/api\/src\/cli\//, /^packages\/worker\/src\/jobs\//];
const DATABASE_ACCESS = /\bprisma\b|\bPrismaClient\b|\bPrisma\.|\$queryRaw|\$executeRaw|\$transaction|\bSqlPool\b|\bsql\.(?:query|execute|batch|getConnection)\b/;

describe("who owns which table", () => {
  it("names an owner for every table of the schema", () => {
    const unowned = [...modelTables().values()].filter((table) => !TABLE_OWNERS[table]);
    expect(unowned).toEqual([]);
  });

  it("keeps Prisma and SQL out of routes, CLI commands and job processors", () => {
    const offenders = files.filter((file) => ADAPTERS.some((adapter) => adapter.test(file.path)) && DATABASE_ACCESS.test(file.text)).map((file) => file.path);
    expect(offenders).toEqual([]);
  });

  it("lets only a table's owning domain read or write it", () => {
    const tables = modelTables();
    const offences: string[] = [];
    for (const file of files) {
      const domain = domainOf(file.path);
      const isAdapter = ADAPTERS.some((adapter) => adapter.test(file.path));
      if (isAdapter) continue; // the test above covers them
      for (const [, , accessor] of file.text.matchAll(PRISMA_CALL)) {
        const table = tables.get(accessor!);
        if (table && TABLE_OWNERS[table] !== domain) offences.push(`${file.path}: ${table} (owner ${TABLE_OWNERS[table]})`);
      }
      for (const [, word] of file.text.matchAll(SQL_TABLE)) {
        const owner = TABLE_OWNERS[word!];
        if (owner && owner !== domain) offences.push(`${file.path}: ${word} (owner ${owner})`);
      }
    }
    expect([...new Set(offences)]).toEqual([]);
  });
});

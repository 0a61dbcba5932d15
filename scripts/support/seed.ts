// The worlds benchmarks and scripts run in, written straight into their tables: the one module outside
// the domains that writes rows in bulk (test/tooling/table-owners.test.ts holds every other bench and
// script file to reads). Its rows are a fixture's starting state, set at once (thousands of orders already
// exported, webhooks already queued), which no domain use case writes; what a use case can make (users,
// items, merchants, API keys, options) is made through it instead.
import { encryptSecret, type PrismaClient } from "@mw/platform";
import { reindexOrderSearch } from "@mw/domains/orders";

type SiteData = Parameters<PrismaClient["site"]["create"]>[0]["data"];
type TicketData = Parameters<PrismaClient["ticket"]["create"]>[0]["data"];
/** One row of a createMany. */
type ManyRow<Args> = Args extends { data: infer Data } ? (Data extends readonly (infer Row)[] ? Row : Data) : never;
type OrderRow = ManyRow<Parameters<PrismaClient["order"]["createMany"]>[0]>;
type WebhookEventRow = ManyRow<Parameters<PrismaClient["webhookEvent"]["createMany"]>[0]>;
type StaffRow = ManyRow<Parameters<PrismaClient["staff"]["createMany"]>[0]>;

export async function seedSite(prisma: PrismaClient, data: SiteData): Promise<{ id: number }> {
  return prisma.site.create({ data, select: { id: true } });
}

/** A storefront_a site on the fake fraud service: what a dispute world's orders belong to. */
export async function seedFraudSite(prisma: PrismaClient, key: Buffer, site: { name: string; site_url: string; fraud_team_id: string; fraudKey: string }): Promise<{ id: number }> {
  return seedSite(prisma, { name: site.name, platform: "storefront_a", site_url: site.site_url, fraud_team_id: site.fraud_team_id, fraud_api_key: encryptSecret(site.fraudKey, key) });
}

/** Sales of `siteId` as stored orders: paid with pay_1 by contact 27111, shipped by FedEx ground; `payload_hash` and the rest as given. */
export async function seedSales(prisma: PrismaClient, siteId: number, sales: { number: string; dateadded: Date; payload_hash: string; imported?: number }[]): Promise<void> {
  await seedOrders(
    prisma,
    sales.map((sale) => ({ site_id: siteId, payment_method: "pay_1", contact_id: 27111, shipping_agent_code: "FEDEX", shipping_agent_service: "GROUND_HOME_DELIVERY", ...sale })),
  );
}

export async function seedOrders(prisma: PrismaClient, rows: OrderRow[]): Promise<void> {
  await prisma.order.createMany({ data: rows });
}

export async function seedWebhookEvents(prisma: PrismaClient, rows: WebhookEventRow[]): Promise<void> {
  await prisma.webhookEvent.createMany({ data: rows });
}

export async function seedWebhookEvent(prisma: PrismaClient, row: WebhookEventRow): Promise<{ id: number; event_id: string | null }> {
  return prisma.webhookEvent.create({ data: row, select: { id: true, event_id: true } });
}

/** Serial numbers 1..count (`<prefix>-<n>`), serial n's image `imageKey(n)` as SQL over `seq`: one statement over MariaDB's sequence engine. */
export async function seedSerialNumbers(prisma: PrismaClient, count: number, prefix: string, imageKeySql: string): Promise<void> {
  await prisma.$executeRawUnsafe(
    `INSERT INTO serial_numbers (id, serial_number, date_of_sealing, image_key)
     SELECT seq, CONCAT('${prefix}-', seq), '2024-01-01 00:00:00', ${imageKeySql} FROM seq_1_to_${count}`,
  );
}

export async function seedTicket(prisma: PrismaClient, data: TicketData): Promise<void> {
  await prisma.ticket.create({ data });
}

/**
 * A CRITICAL ticket whose alert is owed on e-mail and SMS to two staff members (the assigned one and the
 * department manager), as an analysis leaves it just before it queues the alert's jobs.
 */
export async function seedCriticalTicket(prisma: PrismaClient, ticketId: number, staff: [StaffRow, StaffRow]): Promise<void> {
  await prisma.staff.createMany({ data: staff });
  await prisma.ticket.create({
    data: { id: ticketId, number: String(ticketId).padStart(6, "0"), subject: "Checkout is down", status: "open", assigned_staff_id: staff[0].id, department_manager_staff_id: staff[1].id, ai_urgency: "CRITICAL", ai_urgency_percentage: 95, opened_at: new Date() },
  });
  await prisma.aiHistory.createMany({ data: (["email", "sms"] as const).map((channel) => ({ ticket_id: ticketId, event: "critical_alert", channel })) });
}

/**
 * Runs one bulk-load statement as migration 20261129130000 lets a session write orders: the search
 * triggers deferred for its own writes, left to `pnpm cli orders:reindex` (reindexOrderSearch) after.
 */
export function withOrderSearchDeferred(prisma: PrismaClient, statement: string): Promise<number> {
  return prisma.$transaction(
    async (tx) => {
      await tx.$executeRaw`SET @order_search_deferred = 1`;
      try {
        return await tx.$executeRawUnsafe(statement);
      } finally {
        await tx.$executeRaw`SET @order_search_deferred = NULL`;
      }
    },
    { timeout: 3_600_000 },
  );
}

/** How many rows of each kind `pnpm bench:data` seeds at scale 1 (issue 44: a busy shop after a year). */
export const BENCH_DATA_ROWS = { orders: 10_000_000, disputes: 2_000_000, webhookEvents: 2_000_000, tickets: 1_000_000, snapshots: 1_000_000, syncRuns: 876_000, managedSites: 10_000, sites: 200 };

/** Plugins each seeded managed site has: the plugin export's rows are managed sites × this. */
export const BENCH_PLUGINS_PER_SITE = 25;

/**
 * A year of a busy shop, written with MariaDB's sequence engine (`INSERT ... SELECT ... FROM seq_1_to_N`)
 * in batches of `batch` rows so no transaction grows without bound: orders B<n> (transaction T<n>, ERP
 * SO-<n>; one in a thousand still pending) three seconds apart over the last year across 200 sites, taken
 * in when they were placed, two lines and both addresses each; disputes on every fifth order, processed
 * acquirer webhook events, tickets and their urgency snapshots, an inventory run an hour on each of the
 * half of the sites that sync inventory, and managed sites with their plugins. Rows go in through SQL as an import or a restore would, so whatever the
 * database keeps for its reads (triggers) is kept for them too; the orders as a bulk load, their search index built after. `progress` hears each batch.
 */
export async function seedBenchData(prisma: PrismaClient, scale: number, progress: (table: string, done: number, total: number) => void, batch = 50_000): Promise<Record<string, number>> {
  const counts = Object.fromEntries(Object.entries(BENCH_DATA_ROWS).map(([name, rows]) => [name, name === "sites" ? rows : Math.max(1, Math.round(rows * scale))]));
  const start = "'2025-11-29 00:00:00'";
  await prisma.$executeRawUnsafe(
    `INSERT INTO sites (id, name, platform, site_url, inventory_sync, updated_at)
     SELECT seq, CONCAT('Shop ', seq), IF(seq % 2, 'storefront_a', 'storefront_b'), CONCAT('https://shop', seq, '.example'), seq % 2 = 0, NOW(3) FROM seq_1_to_${counts.sites}`,
  );
  const inBatches = async (table: string, total: number, sql: (from: number, to: number) => string, run: (statement: string) => Promise<number> = (statement) => prisma.$executeRawUnsafe(statement)) => {
    for (let from = 1; from <= total; from += batch) {
      const to = Math.min(total, from + batch - 1);
      await run(sql(from, to));
      progress(table, to, total);
    }
  };
  // Orders go in as a bulk load should: the grams and counts built once after, a range of orders at a time.
  const deferringSearch = (statement: string) => withOrderSearchDeferred(prisma, statement);
  const span = (from: number, to: number) => `seq_${from}_to_${to}`;
  const orderDate = (n: string) => `${start} + INTERVAL (${n} * ${Math.max(1, Math.round(31_536_000 / counts.orders!))}) SECOND`;
  await inBatches("orders", counts.orders!, (from, to) => `INSERT INTO orders (id, site_id, number, trans_id, erp_sales_order_number, dateadded, payment_method, contact_id,
       shipping_agent_code, shipping_agent_service, imported, verified, ship_status, fully_import_from_website, payload_hash, imported_at, created_at, updated_at)
     SELECT seq, 1 + seq % ${counts.sites}, CONCAT('B', seq), CONCAT('T', seq), IF(seq % 1000 = 0, NULL, CONCAT('SO-', seq)), ${orderDate("seq")},
       CONCAT('pay_', 1 + seq % 6), 27111, 'FEDEX', 'GROUND_HOME_DELIVERY', seq % 1000 <> 0, seq % 1000 > 1, seq % 3 = 0, 1, LPAD(seq, 64, '0'),
       IF(seq % 1000 = 0, NULL, ${orderDate("seq")} + INTERVAL 5 MINUTE), ${orderDate("seq")}, NOW(3)
     FROM ${span(from, to)}`, deferringSearch);
  const indexed = await reindexOrderSearch({ prisma });
  progress("order_search_grams", indexed.grams, indexed.grams);
  await inBatches("order_lines", counts.orders!, (from, to) => `INSERT INTO order_lines (order_id, line, sku, quantity, price)
     SELECT o.seq, l.seq, IF(l.seq = 2, 'SHIPPING', CONCAT('SKU-', o.seq % 500)), 1 + o.seq % 3, IF(l.seq = 2, 5, 19.99) FROM ${span(from, to)} o JOIN seq_1_to_2 l`);
  await inBatches("order_addresses", counts.orders!, (from, to) => `INSERT INTO order_addresses (order_id, type, first_name, last_name, address1, city, state, postal_code, country, email)
     SELECT o.seq, t.seq, 'Ada', CONCAT('Buyer', o.seq), CONCAT(o.seq % 900, ' Main Street'), 'Springfield', 'IL', '62701', 'US', CONCAT('buyer', o.seq, '@example.com')
     FROM ${span(from, to)} o JOIN seq_0_to_1 t`);
  await inBatches("dispute_linkages", counts.disputes!, (from, to) => `INSERT INTO dispute_linkages (case_id, mid, gateway_transaction_id, order_number, match_strategy, amount, reason_code, dispute_status, acquirer_data, gateway_data, linked_at)
     SELECT CONCAT('C', seq), '800123', CONCAT('T', seq * 5), CONCAT('B', seq * 5), 'transaction_id', 24.99, '10.4', 'open', '{}', '{}', ${orderDate("seq * 5")} + INTERVAL 20 DAY
     FROM ${span(from, to)}`);
  // Deliveries dated by their order, not after it: a date past the seeding would crowd every "since" window (the operations page's).
  await inBatches("webhook_events", counts.webhookEvents!, (from, to) => `INSERT INTO webhook_events (source, event_type, event_id, payload, payload_hash, received_at, processed_at, outcome)
     SELECT 'acquirer', 'dispute.created', CONCAT('acquirer:C', seq), '{}', LPAD(seq, 64, '0'), ${orderDate("seq * 5")}, ${orderDate("seq * 5")} + INTERVAL 2 SECOND, 'linked'
     FROM ${span(from, to)}`);
  await inBatches("tickets", counts.tickets!, (from, to) => `INSERT INTO tickets (id, number, subject, status, opened_at, updated_at)
     SELECT seq, CONCAT('T-', seq), CONCAT('Order question ', seq), IF(seq % 10 = 0, 'open', 'closed'), ${orderDate("seq * 10")}, NOW(3) FROM ${span(from, to)}`);
  await inBatches("ai_snapshots", counts.snapshots!, (from, to) => `INSERT INTO ai_snapshots (ticket_id, urgency, urgency_percentage, estimated_hours, summary, timeline, suggested_title, model_used, created)
     SELECT seq, ELT(1 + seq % 4, 'LOW', 'MEDIUM', 'HIGH', 'CRITICAL'), seq % 100, 1.5, 'Customer asks about an order.', '[]', CONCAT('Order question ', seq), 'rules', ${orderDate("seq * 10")}
     FROM ${span(from, to)}`);
  const runEvery = Math.max(1, Math.round(31_536_000 / counts.syncRuns!));
  await inBatches("sync_runs", counts.syncRuns!, (from, to) => `INSERT INTO sync_runs (site_id, kind, status, counts, started_at, finished_at)
     SELECT 2 * (1 + seq % ${counts.sites! / 2}), 'inventory', IF(seq % 50 = 0, 'failed', 'completed'),
       '{"items": 120, "pushed": 118, "forced_zero": 1, "not_on_storefront": 1, "errors": 0}',
       ${start} + INTERVAL (seq * ${runEvery}) SECOND, ${start} + INTERVAL (seq * ${runEvery} + 60) SECOND
     FROM ${span(from, to)}`);
  // The same plugin list on every site, as the last sync_site read it: what export_plugins lists per site.
  const plugins = `(SELECT CONCAT('[', GROUP_CONCAT(CONCAT('{"plugin":"plugin-', p.seq, '/plugin-', p.seq, '.php","name":"Plugin ', p.seq, '","version":"1.', p.seq, '.0","active":',
    IF(p.seq % 4 = 0, 'false', 'true'), ',"update_available":', IF(p.seq % 5 = 0, 'true', 'false'), '}') ORDER BY p.seq), ']') FROM seq_1_to_${BENCH_PLUGINS_PER_SITE} p)`;
  await inBatches("managed_sites", counts.managedSites!, (from, to) => `INSERT INTO managed_sites (id, name, url, client, status, hosting, plugins, synced_at, ssl_expires_at, updated_at)
     SELECT seq, CONCAT('Client site ', seq), CONCAT('https://client', seq, '.example'), CONCAT('Client ', seq % 400), IF(seq % 10 = 0, 'archived', 'active'), 'Kinsta',
       ${plugins}, ${start} + INTERVAL 364 DAY, ${start} + INTERVAL (seq % 400) DAY, NOW(3)
     FROM ${span(from, to)}`);
  return counts;
}

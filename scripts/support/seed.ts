// The worlds benchmarks and scripts run in, written straight into their tables: the one module outside
// the domains that writes rows in bulk (test/tooling/table-owners.test.ts holds every other bench and
// script file to reads). Its rows are a fixture's starting state, set at once (thousands of orders already
// exported, webhooks already queued), which no domain use case writes; what a use case can make (users,
// items, merchants, API keys, options) is made through it instead.
import { encryptSecret, type PrismaClient } from "@mw/platform";

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

import { Prisma } from "@mw/platform/database";
import { csvTextCell } from "@mw/platform/text";
import type { Connections } from "@mw/platform/connections";
import { monthlyAmount } from "./costs.ts";
import { daysFromNow } from "./expiry.ts";

/** How far ahead the summary looks for licenses and certificates that run out. */
const EXPIRY_HORIZON_DAYS = 30;

export const SUMMARY_COLUMNS = ["section", "name", "currency", "value"];

/**
 * The dashboard summary (generate_report): managed sites by status, monthly
 * costs by vendor and by client (a shared cost split evenly over its sites,
 * one with no site under "(unassigned)"), and the licenses and certificates
 * that expire within EXPIRY_HORIZON_DAYS. One CSV table, a section per row.
 * A snapshot for a report: read from the replica.
 */
export async function dashboardSummary(deps: Pick<Connections, "replica">, now = new Date()): Promise<(string | number)[][]> {
  const prisma = deps.replica;
  const horizon = daysFromNow(EXPIRY_HORIZON_DAYS, now.getTime());
  const [byStatus, costs, licenses, certificates] = await Promise.all([
    prisma.managedSite.groupBy({ by: ["status"], _count: { _all: true }, orderBy: { status: "asc" } }),
    prisma.cost.findMany({ include: { sites: { select: { site: { select: { client: true } } } } } }),
    prisma.license.findMany({ where: { expires_on: { lte: horizon } }, select: { product: true, expires_on: true }, orderBy: [{ expires_on: "asc" }, { product: "asc" }] }),
    // The two columns it lists: a whole site row carries its plugins and checks, +80 MB for 9,000 sites.
    prisma.managedSite.findMany({ where: { status: "active", ssl_expires_at: { lte: horizon } }, select: { url: true, ssl_expires_at: true }, orderBy: [{ ssl_expires_at: "asc" }, { url: "asc" }] }),
  ]);
  const byVendor = new Map<string, Prisma.Decimal>();
  const byClient = new Map<string, Prisma.Decimal>();
  const add = (totals: Map<string, Prisma.Decimal>, key: string, amount: Prisma.Decimal) => totals.set(key, (totals.get(key) ?? new Prisma.Decimal(0)).add(amount));
  for (const cost of costs) {
    const monthly = monthlyAmount(cost.amount, cost.cycle);
    add(byVendor, `${cost.vendor}\u0000${cost.currency}`, monthly);
    if (!cost.sites.length) add(byClient, `(unassigned)\u0000${cost.currency}`, monthly);
    const share = cost.sites.length ? monthly.div(cost.sites.length) : monthly;
    for (const { site } of cost.sites) add(byClient, `${site.client ?? "(no client)"}\u0000${cost.currency}`, share);
  }
  const money = (totals: Map<string, Prisma.Decimal>, section: string) =>
    [...totals]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, amount]) => {
        const [name, currency] = key.split("\u0000");
        return [section, csvTextCell(name), currency!, amount.toFixed(2)];
      });
  return [
    ...byStatus.map((row) => ["sites_by_status", row.status, "", row._count._all]),
    ...money(byVendor, "monthly_cost_by_vendor"),
    ...money(byClient, "monthly_cost_by_client"),
    ...licenses.map((license) => ["license_expiring", csvTextCell(license.product), "", license.expires_on!.toISOString().slice(0, 10)]),
    ...certificates.map((site) => ["ssl_expiring", csvTextCell(site.url), "", site.ssl_expires_at!.toISOString().slice(0, 10)]),
  ];
}

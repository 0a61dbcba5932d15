// How a job reads to an operator (its type, its site, a line about it): the console's job search and the /queue REST list both show it.
import type { Job } from "bullmq";
import { siteNames } from "@mw/domains/sites";
import type { AppContext } from "../../context.ts";

/** Spec 1, 2.7 names job types with underscores (`process_dispute`, `inventory_sync`); BullMQ names use hyphens. */
export function jobType(name: string): string {
  return name.replace(/-/g, "_");
}

/** The site a job concerns, when its payload names one. */
export function siteOf(job: Job): number | null {
  const siteId = (job.data as { site_id?: unknown }).site_id;
  return typeof siteId === "number" ? siteId : null;
}

/** The names of the sites these jobs concern, for their descriptions. */
export function siteNamesOf(ctx: Pick<AppContext, "prisma">, jobs: Job[]): Promise<Map<number, string>> {
  return siteNames(ctx, jobs.map(siteOf).filter((id): id is number => id !== null));
}

const FIXED: Record<string, string> = {
  "order-sweep": "Sweep: queue the exports of orders left behind",
  "outbox-sweep": "Sweep: queue the dispute webhooks left behind",
  "inventory-sweep": "Hourly full stock sync of every site",
  "inventory-sku-cleanup": "Nightly: drop catalogue SKUs the ERP no longer has",
  "item-history-cleanup": "Nightly: drop item history past its retention (3 days by default)",
  "webhooks-retention": "Daily: drop processed webhook deliveries past their retention",
  "sites-retention": "Daily: drop sync runs and sync errors past their retention",
  "urgency-retention": "Daily: drop urgency snapshots and analysis history past their retention",
  "notifications-retention": "Daily: drop staff notifications and ended operator alerts past their retention",
  "tickets-retention": "Daily: drop the ticket changes feed and directory audit rows past their retention",
  "knowledge-retention": "Daily: drop assistant conversations past their retention",
  "reports-retention": "Daily: drop report runs and their files past their retention",
  "reports-daily": "Daily reports for yesterday",
  "urgency-sweep": "Sweep: queue the urgency analyses and CRITICAL alerts left behind",
};

/** One line naming the business object a job works on (spec 1, 2.7 `description`): order number, case, site, report key. */
export function describeJob(job: Job, siteNames: Map<number, string>): string {
  const data = job.data as Record<string, unknown>;
  const siteId = siteOf(job);
  const site = siteId === null ? "" : `site ${siteId}${siteNames.has(siteId) ? ` (${siteNames.get(siteId)})` : ""}`;
  switch (job.name) {
    case "order-export":
      return `Export order ${data.order_number ?? `#${String(data.order_id)}`}${site ? ` of ${site}` : ""} to the ERP`;
    case "order-verify":
      return `Verify order ${data.order_number ?? `#${String(data.order_id)}`}${site ? ` of ${site}` : ""} against the ERP`;
    case "orders-import":
      return `Import new and changed orders of ${site}`;
    case "process-dispute":
      return `Match dispute ${data.event_id ?? `webhook ${String(data.webhook_id)}`}`;
    case "tracking-sync":
      return `Tracking numbers to ${site}`;
    case "tracking-order-push":
      return `Tracking numbers of order ${String(data.order_number)} to ${site} again`;
    case "inventory-sync": {
      const products = Array.isArray(data.product_ids) ? data.product_ids : null;
      return products ? `Stock of product ${products.join(", ")} on ${site}` : `Full stock sync of ${site}`;
    }
    case "health-ping":
      return `Health-check ping${site ? ` after the tracking sync of ${site}` : ""}`;
    case "urgency-analysis":
      return `Urgency analysis of ticket ${String(data.ticket_id)}`;
    case "critical-alert":
      return `CRITICAL alert (${String(data.channel)}) for ticket ${String(data.ticket_id)}`;
    case "alert-email":
      return typeof data.subject === "string" ? `Alert e-mail: ${data.subject}` : "Alert e-mail";
  }
  if (typeof data.description === "string") return data.description;
  return FIXED[job.name] ?? jobType(job.name).replace(/_/g, " ");
}

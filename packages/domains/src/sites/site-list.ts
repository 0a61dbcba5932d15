import { z } from "zod";
import { formatDateTime } from "@mw/platform/core";
import { Prisma } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";
import type { Site } from "@mw/platform/prisma";
import { platformSchema } from "./input.ts";

/** One row of the site list (spec 1, 2.2): no credentials, no settings. */
export const siteListRow = z.object({
  id: z.number().int(),
  name: z.string(),
  platform: platformSchema,
  site_url: z.string(),
  is_active: z.boolean(),
  orders_sync: z.boolean(),
  inventory_sync: z.boolean(),
  tracking_sync: z.boolean(),
  tracking_enabled: z.boolean().describe("the spec's tracking enable flag; tracking runs when it, tracking_sync and is_active are on"),
  order_last_run: z.string().nullable().describe("YYYY-MM-DD HH:MM:SS, UTC"),
  inventory_last_run: z.string().nullable().describe("YYYY-MM-DD HH:MM:SS, UTC"),
  tracking_last_run: z.string().nullable().describe("end of the latest completed tracking run, YYYY-MM-DD HH:MM:SS, UTC"),
});

type SiteListRow = z.infer<typeof siteListRow>;

/** A list row as MariaDB returns it: booleans are 0/1. */
interface SiteListRowSql {
  id: number;
  name: string;
  platform: Site["platform"];
  site_url: string;
  is_active: number;
  orders_sync: number;
  inventory_sync: number;
  tracking_sync: number;
  tracking_enabled: number;
  order_last_run: Date | null;
  inventory_last_run: Date | null;
  tracking_last_run: Date | null;
}

/**
 * The sites by name, all or only the active (`true`) or inactive (`false`)
 * ones, with the end of each site's latest completed tracking run, in one
 * statement: the subquery reads one entry of the sync_runs (site, kind,
 * status, started_at) index per site.
 */
export async function listSites(deps: Pick<Connections, "prisma">, active: boolean | undefined): Promise<SiteListRow[]> {
  const where = active === undefined ? Prisma.empty : Prisma.sql`WHERE s.is_active = ${active}`;
  const rows = await deps.prisma.$queryRaw<SiteListRowSql[]>`
    SELECT s.id, s.name, s.platform, s.site_url, s.is_active, s.orders_sync, s.inventory_sync, s.tracking_sync, s.tracking_enabled,
           s.order_last_run, s.inventory_last_run,
           (SELECT r.finished_at FROM sync_runs r
             WHERE r.site_id = s.id AND r.kind = 'tracking' AND r.status = 'completed'
             ORDER BY r.started_at DESC, r.id DESC LIMIT 1) AS tracking_last_run
    FROM sites s ${where}
    ORDER BY s.name ASC, s.id ASC`;
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    platform: row.platform,
    site_url: row.site_url,
    is_active: Boolean(row.is_active),
    orders_sync: Boolean(row.orders_sync),
    inventory_sync: Boolean(row.inventory_sync),
    tracking_sync: Boolean(row.tracking_sync),
    tracking_enabled: Boolean(row.tracking_enabled),
    order_last_run: formatDateTime(row.order_last_run),
    inventory_last_run: formatDateTime(row.inventory_last_run),
    tracking_last_run: formatDateTime(row.tracking_last_run),
  }));
}

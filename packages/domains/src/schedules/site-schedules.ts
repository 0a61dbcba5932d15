import { ordersImportSchedule } from "../orders/index.ts";
import type { SiteSchedule } from "../sites/index.ts";
import { trackingSchedule } from "../tracking/index.ts";

/** Every per-site job scheduler: a change to a site (sites' SiteWriteDeps) brings each of them in line with its row. */
export const SITE_SCHEDULES: readonly SiteSchedule[] = [trackingSchedule, ordersImportSchedule];

import { ORDER_IMPORT_SITES, siteSchedule } from "../sites/index.ts";
import { isOrdersImportScheduler, ordersImportJob, ordersImportSchedulerId } from "./jobs.ts";

/** Active sites with orders_sync have their storefront orders pulled every 15 minutes; sites routes `sync` it, workers serving orders `reconcile`. */
export const ordersImportSchedule = siteSchedule({
  job: ordersImportJob,
  everyMs: 15 * 60_000,
  sites: ORDER_IMPORT_SITES,
  schedulerId: ordersImportSchedulerId,
  isScheduler: isOrdersImportScheduler,
});

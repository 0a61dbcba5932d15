import { z } from "zod";
import { defineJob, jobId } from "@mw/platform/queues";

/** Push one order to the ERP. The order's number and site ride along so Bull Board and GET /queue show which order it is. */
export const orderExportJob = defineJob({
  queue: "orders",
  name: "order-export",
  payload: z.object({ order_id: z.number().int().positive(), order_number: z.string().max(191).optional(), site_id: z.number().int().positive().optional() }),
});

/** An order has one export job: adding it again while it exists changes nothing. */
export const orderExportJobId = (orderId: number) => jobId("order-export", orderId);

/** Read an exported order back from the ERP and set `verified` when the ERP holds what we sent. */
export const orderVerifyJob = defineJob({
  queue: "orders",
  name: "order-verify",
  payload: z.object({ order_id: z.number().int().positive(), order_number: z.string().max(191).optional(), site_id: z.number().int().positive().optional() }),
});

/** One verification job per order; a mismatch is recorded and waits for an operator. */
export const orderVerifyJobId = (orderId: number) => jobId("order-verify", orderId);

/**
 * Pull one site's new and changed storefront orders (spec 1, 2.2
 * `orders_sync`); every 15 minutes per site through the job scheduler
 * `orders-import.<site id>` (import-schedule.ts: it follows the sites table).
 */
export const ordersImportJob = defineJob({ queue: "orders", name: "orders-import", payload: z.object({ site_id: z.number().int().positive() }) });

/** The job scheduler of one site. */
export const ordersImportSchedulerId = (siteId: number) => jobId("orders-import", siteId);

/** Whether a scheduler of the orders queue is one of ordersImportSchedulerId's. */
export const isOrdersImportScheduler = (key: string) => /^orders-import\.\d+$/.test(key);

/** Exports the intake could not queue, and exports that ran out of attempts in an ERP outage. */
export const orderSweepJob = defineJob({ queue: "orders", name: "order-sweep", payload: z.object({}), schedule: { every: 5 * 60_000 } });

/** Spec 2, 4.2 `/trigger-order-volume-tests`: every active site's order-volume test, the results for the caller. */
export const orderVolumeTestsJob = defineJob({ queue: "orders", name: "order-volume-tests", payload: z.object({}) });

/** The daily order-volume test, which e-mails the failures to ALERT_EMAIL_TO (nothing when all pass). */
export const orderVolumeDailyJob = defineJob({ queue: "orders", name: "order-volume-daily", payload: z.object({}), schedule: { pattern: "0 6 * * *" } });

/** One failure e-mail per day of the run: a retried or repeated daily run that day sends no second one. */
export const orderVolumeAlertJobId = (day: string) => jobId("order-volume-alert", day);

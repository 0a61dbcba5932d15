import { z } from "zod";
import { defineJob, jobId } from "../platform/index.ts";

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

/** Exports the intake could not queue, and exports that ran out of attempts in an ERP outage. */
export const orderSweepJob = defineJob({ queue: "orders", name: "order-sweep", payload: z.object({}), schedule: { every: 5 * 60_000 } });

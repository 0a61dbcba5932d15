import { REPORT_TYPES } from "@mw/shared/reports";
import { type QueueName } from "@mw/shared";
import { processDispute } from "./disputes/process-dispute.ts";
import { inventorySkuCleanup, inventorySync, itemHistoryCleanup } from "./inventory/inventory-sync.ts";
import { inventorySweep } from "./inventory/inventory-sweep.ts";
import { alertEmail, chatMessage, healthPing } from "./notifications/notifications.ts";
import { orderExport, orderSweep } from "./orders/order-export.ts";
import { reportsDaily, runReport } from "./reports/reports.ts";
import { trackingSync } from "./tracking/tracking-sync.ts";
import type { Processor } from "../runtime/processor.ts";
import { webhookSweep } from "./webhooks/outbox-sweep.ts";

/** Every job name a worker knows, by queue. A job with another name fails with a clear reason. */
export const PROCESSORS: Partial<Record<QueueName, Record<string, Processor>>> = {
  orders: { "order-export": orderExport as Processor, "order-sweep": orderSweep as Processor },
  notifications: {
    "health-ping": healthPing as Processor,
    "chat-message": chatMessage as Processor,
    "alert-email": alertEmail as Processor,
  },
  disputes: {
    "process-dispute": processDispute as Processor,
    "webhook-sweep": webhookSweep as Processor,
  },
  reports: {
    ...Object.fromEntries(REPORT_TYPES.map((type) => [type, runReport as Processor])),
    "reports-daily": reportsDaily as Processor,
  },
  tracking: { "tracking-sync": trackingSync as Processor },
  inventory: {
    "inventory-sync": inventorySync as Processor,
    "inventory-sku-cleanup": inventorySkuCleanup as Processor,
    "item-history-cleanup": itemHistoryCleanup as Processor,
    "inventory-sweep": inventorySweep as Processor,
  },
};

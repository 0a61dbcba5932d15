import { JobCatalog } from "@mw/platform";
import type { WorkerCatalog } from "../runtime/processor.ts";
import { managedSiteHandlers } from "./managed-sites/index.ts";
import { disputeHandlers } from "./disputes/index.ts";
import { inventoryHandlers } from "./inventory/index.ts";
import { knowledgeHandlers } from "./knowledge/index.ts";
import { notificationHandlers } from "./notifications/index.ts";
import { orderHandlers } from "./orders/index.ts";
import { reportHandlers } from "./reports/index.ts";
import { siteHandlers } from "./sites/index.ts";
import { ticketHandlers } from "./tickets/index.ts";
import { timeTrackingHandlers } from "./timetracking/index.ts";
import { trackingHandlers } from "./tracking/index.ts";
import { urgencyHandlers } from "./urgency/index.ts";
import { webhookHandlers } from "./webhooks/index.ts";

/** Every job a worker knows, merged from the domains. A job with another name fails with a clear reason. */
export const JOBS: WorkerCatalog = new JobCatalog([
  ...orderHandlers,
  ...disputeHandlers,
  ...webhookHandlers,
  ...trackingHandlers,
  ...inventoryHandlers,
  ...reportHandlers,
  ...notificationHandlers,
  ...urgencyHandlers,
  ...timeTrackingHandlers,
  ...managedSiteHandlers,
  ...knowledgeHandlers,
  ...siteHandlers,
  ...ticketHandlers,
]);

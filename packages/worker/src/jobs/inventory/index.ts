import { inventorySkuCleanupJob, inventorySweepJob, inventorySyncJob, itemHistoryCleanupJob } from "@mw/domains/inventory";
import { handle } from "../../runtime/processor.ts";
import { inventorySweep } from "./inventory-sweep.ts";
import { inventorySkuCleanup, inventorySync, itemHistoryCleanup } from "./inventory-sync.ts";

export const inventoryHandlers = [
  handle(inventorySyncJob, inventorySync),
  handle(inventorySweepJob, inventorySweep),
  handle(inventorySkuCleanupJob, inventorySkuCleanup),
  handle(itemHistoryCleanupJob, itemHistoryCleanup),
];

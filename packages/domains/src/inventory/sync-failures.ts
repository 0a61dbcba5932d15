import type { Connections } from "@mw/platform/connections";
import { recordSyncError } from "../sites/index.ts";

/** An inventory sync that failed for good, for operators to see in GET /stats. */
export async function recordInventorySyncFailure(deps: Pick<Connections, "prisma">, siteId: number, message: string): Promise<void> {
  await recordSyncError(deps, { source: "inventory_sync", site_id: siteId, message });
}

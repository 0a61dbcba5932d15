import type { Connections } from "@mw/platform/connections";
import { recordSyncError } from "../sites/index.ts";

const SOURCE = "tracking_sync";

/** A tracking sync's failure: an order's, or the run's own (no order number). */
interface TrackingFailure {
  order_number: string | null;
  message: string;
}

/** A tracking sync that failed for good: operators see each failure in GET /stats. */
export async function recordTrackingFailures(deps: Pick<Connections, "prisma">, siteId: number, failures: TrackingFailure[]): Promise<void> {
  for (const failure of failures) await recordSyncError(deps, { source: SOURCE, site_id: siteId, order_number: failure.order_number, message: failure.message });
}

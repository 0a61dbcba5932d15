import { queueScheduledInventorySyncs, type inventorySweepJob } from "@mw/domains/inventory";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** `inventory-sweep`: ERP stock changes reach the storefronts without anyone asking (a product webhook covers only storefront-side changes). */
export async function inventorySweep(_job: Job, _payload: PayloadOf<typeof inventorySweepJob>, ctx: JobContext) {
  const result = await queueScheduledInventorySyncs(ctx);
  ctx.log.info("scheduled full inventory syncs queued", { period_start: result.period_start, sites: result.syncs.length });
  return result;
}

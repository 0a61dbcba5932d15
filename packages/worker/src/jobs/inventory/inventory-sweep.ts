import { sweepInventory, type inventorySweepJob } from "@mw/domains/inventory";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** `inventory-sweep`: a full inventory sync of every syncing site, once an hour. */
export async function inventorySweep(_job: Job, _payload: PayloadOf<typeof inventorySweepJob>, { prisma, queues, log }: Pick<JobContext, "prisma" | "queues" | "log">) {
  return sweepInventory({ prisma, queues, log });
}

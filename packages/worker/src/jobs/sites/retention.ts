import { purgeSiteHistory, type sitesRetentionJob } from "@mw/domains/sites";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** `sites-retention`: sync runs and sync errors past their retention go. */
export async function sitesRetention(_job: Job, _payload: PayloadOf<typeof sitesRetentionJob>, ctx: Pick<JobContext, "prisma" | "config" | "log">) {
  return purgeSiteHistory(ctx);
}

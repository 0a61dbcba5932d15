import { purgeUrgencyHistory, type urgencyRetentionJob } from "@mw/domains/urgency";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** `urgency-retention`: snapshots and analysis history past RETENTION_SNAPSHOTS_DAYS go. */
export async function urgencyRetention(_job: Job, _payload: PayloadOf<typeof urgencyRetentionJob>, ctx: Pick<JobContext, "prisma" | "config" | "log">) {
  return purgeUrgencyHistory(ctx);
}

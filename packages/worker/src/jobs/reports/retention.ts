import { purgeReports, type reportsRetentionJob } from "@mw/domains/reports";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** `reports-retention`: report runs and their files past RETENTION_REPORTS_DAYS go. */
export async function reportsRetention(_job: Job, _payload: PayloadOf<typeof reportsRetentionJob>, ctx: Pick<JobContext, "prisma" | "config" | "storage" | "log">) {
  return purgeReports(ctx);
}

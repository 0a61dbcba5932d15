import { runTrackingSync, type trackingSyncJob } from "@mw/domains/tracking";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import { syncJobOf } from "../../runtime/attempts.ts";
import type { JobContext } from "../../runtime/processor.ts";

/** `tracking-sync`: ERP tracking numbers onto one site's storefront orders. */
export async function trackingSync(job: Job, payload: PayloadOf<typeof trackingSyncJob>, { prisma, queues, config, redis, log, progress }: Pick<JobContext, "prisma" | "queues" | "config" | "redis" | "log" | "progress">) {
  return runTrackingSync({ prisma, queues, config, redis, log, progress }, syncJobOf(job), payload.site_id);
}

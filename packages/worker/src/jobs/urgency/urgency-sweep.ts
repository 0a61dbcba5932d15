import type { PayloadOf } from "@mw/platform";
import { sweepUrgencyQueue, type urgencySweepJob } from "@mw/domains/urgency";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";
import { processServices } from "../../runtime/services.ts";

/** The urgency queue's safety net, every minute: the limiter, a job for every row owing an analysis, the alerts still owed. */
export async function urgencySweep(_job: Job, _payload: PayloadOf<typeof urgencySweepJob>, ctx: Pick<JobContext, "prisma" | "queues" | "config" | "redis" | "logger" | "log">) {
  const result = await sweepUrgencyQueue({ ...ctx, options: processServices(ctx).options });
  if (result.requeued) ctx.log.warn("urgency rows without a job re-queued", { requeued: result.requeued });
  return result;
}

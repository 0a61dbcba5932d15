import { sweepDisputeOutbox, type JobPayload } from "@mw/shared";
import type { Job } from "bullmq";
import type { JobContext } from "./types.ts";

/** Queues dispute webhooks whose job never reached Redis (a crash between the audit row and the enqueue). */
export async function webhookSweep(_job: Job, _payload: JobPayload<"disputes", "webhook-sweep">, ctx: JobContext) {
  const queued = await sweepDisputeOutbox(ctx.prisma, ctx.queues);
  if (queued) ctx.log.warn("queued dispute webhooks that had been stored without a job", { queued });
  return { queued };
}

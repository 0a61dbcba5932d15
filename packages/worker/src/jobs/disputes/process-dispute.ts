import { processReceivedDispute, type processDisputeJob } from "@mw/domains/disputes";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import { endsJob } from "../../runtime/attempts.ts";
import type { JobContext } from "../../runtime/processor.ts";

export async function processDispute(job: Job, payload: PayloadOf<typeof processDisputeJob>, ctx: Pick<JobContext, "sql" | "queues" | "config" | "log">) {
  return processReceivedDispute(ctx, payload.webhook_id, (error) => endsJob(job, error));
}

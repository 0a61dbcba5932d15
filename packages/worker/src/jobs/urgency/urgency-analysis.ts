import type { PayloadOf } from "@mw/platform";
import { runUrgencyAnalysis, type urgencyAnalysisJob } from "@mw/domains/urgency";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";
import { processServices } from "../../runtime/services.ts";

/** One analysis run (spec 2, 4.7); the job puts itself back while the ticket is inside its gate or after a provider failure. */
export async function urgencyAnalysis(_job: Job, payload: PayloadOf<typeof urgencyAnalysisJob>, ctx: Pick<JobContext, "prisma" | "queues" | "config" | "redis" | "logger" | "log" | "delay">) {
  return runUrgencyAnalysis({ ...ctx, ...processServices(ctx) }, payload.ticket_id);
}

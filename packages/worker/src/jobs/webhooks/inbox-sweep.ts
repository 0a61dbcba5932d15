import { sweepWebhookInbox, type inboxSweepJob } from "@mw/domains/webhooks";
import { sweepDisputeInbox } from "@mw/domains/disputes";
import { type PayloadOf } from "@mw/platform";
import { sweepProductInbox } from "@mw/domains/inventory";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** The webhook inbox sweep, each source by its own domain's sweep. */
export async function inboxSweep(_job: Job, _payload: PayloadOf<typeof inboxSweepJob>, ctx: Pick<JobContext, "prisma" | "queues" | "log">) {
  return sweepWebhookInbox(ctx, { disputes: sweepDisputeInbox, products: sweepProductInbox });
}

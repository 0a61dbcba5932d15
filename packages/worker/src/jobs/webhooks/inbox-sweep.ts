import { countAbandonedWebhooks, type inboxSweepJob } from "@mw/domains/webhooks";
import { sweepDisputeInbox } from "@mw/domains/disputes";
import { type PayloadOf } from "@mw/platform";
import { sweepProductInbox } from "@mw/domains/inventory";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/**
 * The webhook inbox sweep (design section 3): queues what a stored webhook
 * promised but never got into Redis (a crash or a Redis failure between the
 * audit row and the enqueue), for dispute webhooks and product refreshes, and
 * retries dispute jobs that failed without a permanent verdict.
 */
export async function inboxSweep(_job: Job, _payload: PayloadOf<typeof inboxSweepJob>, ctx: Pick<JobContext, "prisma" | "queues" | "log">) {
  const { queued, retried } = await sweepDisputeInbox(ctx);
  if (queued) ctx.log.warn("queued dispute webhooks that had been stored without a job", { queued });
  if (retried) ctx.log.warn("retried dispute webhooks whose job had failed without a permanent verdict", { retried });
  const refreshes = await sweepProductInbox(ctx);
  if (refreshes) ctx.log.warn("queued product refreshes that had been stored without a job", { refreshes });
  const abandoned = await countAbandonedWebhooks(ctx);
  if (abandoned.acquirer || abandoned.products) {
    ctx.log.warn("webhooks left unprocessed past the sweep's 24-hour window: replay them", { abandoned });
  }
  return { queued, retried, refreshes, abandoned };
}

import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { countAbandonedWebhooks } from "./inbox.ts";

/**
 * Each webhook source's own sweep. They are handed in because their domains
 * (disputes, inventory) import this one to store their webhooks: importing
 * them here would close a circle.
 */
interface InboxSweepers {
  disputes(deps: Pick<Connections, "prisma" | "queues">): Promise<{ queued: number; retried: number }>;
  products(deps: Pick<Connections, "prisma" | "queues">): Promise<number>;
}

/**
 * The webhook inbox sweep (design section 3): queues what a stored webhook
 * promised but never got into Redis (a crash or a Redis failure between the
 * audit row and the enqueue), for dispute webhooks and product refreshes, and
 * retries dispute jobs that failed without a permanent verdict.
 */
export async function sweepWebhookInbox(deps: Pick<Connections, "prisma" | "queues"> & Pick<JobRun, "log">, sweepers: InboxSweepers) {
  const { queued, retried } = await sweepers.disputes(deps);
  if (queued) deps.log.warn("queued dispute webhooks that had been stored without a job", { queued });
  if (retried) deps.log.warn("retried dispute webhooks whose job had failed without a permanent verdict", { retried });
  const refreshes = await sweepers.products(deps);
  if (refreshes) deps.log.warn("queued product refreshes that had been stored without a job", { refreshes });
  const abandoned = await countAbandonedWebhooks(deps);
  if (abandoned.acquirer || abandoned.products) {
    deps.log.warn("webhooks left unprocessed past the sweep's 24-hour window: replay them", { abandoned });
  }
  return { queued, retried, refreshes, abandoned };
}

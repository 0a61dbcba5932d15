import { z } from "zod";
import { defineJob } from "@mw/platform";

/**
 * The outbox sweep (design section 3): stored deliveries whose follow-up
 * job never reached Redis (dispute processing, product refreshes) get it.
 * It is the webhook follow-up work of the `webhooks` queue, which the old
 * cron's `--webhook-max-jobs` drains.
 */
export const outboxSweepJob = defineJob({ queue: "webhooks", name: "outbox-sweep", payload: z.object({}), schedule: { every: 60_000 } });

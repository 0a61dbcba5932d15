import { z } from "zod";
import { defineJob } from "@mw/platform/queues";

/**
 * The inbox sweep (design section 3): stored deliveries whose follow-up
 * job never reached Redis (dispute processing, product refreshes) get it.
 * It is the webhook follow-up work of the `webhooks` queue, which the old
 * cron's `--webhook-max-jobs` drains.
 */
// The job keeps its deployed name: schedulers and logs of running deployments know it.
export const inboxSweepJob = defineJob({ queue: "webhooks", name: "outbox-sweep", payload: z.object({}), schedule: { every: 60_000 } });

/** Daily (RETENTION_SCHEDULE): processed webhook deliveries past their retention. */
export const webhooksRetentionJob = defineJob({ queue: "retention", name: "webhooks-retention", payload: z.object({}), schedule: { setting: "RETENTION_SCHEDULE" } });

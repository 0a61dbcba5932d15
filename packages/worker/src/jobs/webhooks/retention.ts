import { purgeWebhookEvents, type webhooksRetentionJob } from "@mw/domains/webhooks";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** `webhooks-retention`: processed webhook deliveries past RETENTION_WEBHOOK_EVENTS_DAYS go. */
export async function webhooksRetention(_job: Job, _payload: PayloadOf<typeof webhooksRetentionJob>, ctx: Pick<JobContext, "prisma" | "config" | "log">) {
  return purgeWebhookEvents(ctx);
}

import { purgeNotifications, type notificationsRetentionJob } from "@mw/domains/notifications";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** `notifications-retention`: staff notifications and ended operator alerts past their retention go. */
export async function notificationsRetention(_job: Job, _payload: PayloadOf<typeof notificationsRetentionJob>, ctx: Pick<JobContext, "prisma" | "config" | "log">) {
  return purgeNotifications(ctx);
}

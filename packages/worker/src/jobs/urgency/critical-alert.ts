import type { PayloadOf } from "@mw/platform";
import { sendCriticalAlert, type criticalAlertJob } from "@mw/domains/urgency";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** One channel of a ticket's CRITICAL alert (spec 2, 6), sent once. */
export async function criticalAlert(_job: Job, payload: PayloadOf<typeof criticalAlertJob>, ctx: Pick<JobContext, "prisma" | "queues" | "config" | "log" | "delay">) {
  return sendCriticalAlert(ctx, payload.ticket_id, payload.channel);
}

import { purgeTicketHistory, type ticketsRetentionJob } from "@mw/domains/tickets";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** `tickets-retention`: the changes feed and directory audit rows past their retention go. */
export async function ticketsRetention(_job: Job, _payload: PayloadOf<typeof ticketsRetentionJob>, ctx: Pick<JobContext, "prisma" | "config" | "log">) {
  return purgeTicketHistory(ctx);
}

import { deliverOperatorAlert, pingHealthCheck, sendChatMessage, type alertEmailJob, type chatMessageJob, type healthPingJob } from "@mw/domains/notifications";
import type { PayloadOf } from "@mw/platform";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

export async function healthPing(_job: Job, payload: PayloadOf<typeof healthPingJob>, ctx: Pick<JobContext, "config" | "log">) {
  return pingHealthCheck(ctx, payload);
}

/** A chat message; one that names no key (its delivery's) is kept under the job's id. */
export async function chatMessage(job: Job, payload: PayloadOf<typeof chatMessageJob>, ctx: Pick<JobContext, "config" | "prisma" | "redis" | "log" | "delay">) {
  return sendChatMessage(ctx, { ...payload, key: payload.key ?? `chat-message.${job.id!}` });
}

/** An operator alert; producers that name no key (dispute, SSL, order-volume alerts) are kept under the job's id. */
export async function alertEmail(job: Job, payload: PayloadOf<typeof alertEmailJob>, ctx: Pick<JobContext, "prisma" | "config" | "log">) {
  return deliverOperatorAlert(ctx, { ...payload, key: payload.key ?? job.id! });
}

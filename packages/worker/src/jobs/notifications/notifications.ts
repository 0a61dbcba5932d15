import type { alertEmailJob, chatMessageJob, healthPingJob } from "@mw/domains/notifications";
import { createHttpClient, egressGuard, upstreamCall, type PayloadOf } from "@mw/platform";
import { postChatMessage } from "@mw/providers/chat";
import { deliverOperatorAlert } from "@mw/domains/notifications";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** A site's health-check URL was entered through the API: the egress guard checks it. */
export async function healthPing(_job: Job, payload: PayloadOf<typeof healthPingJob>, ctx: Pick<JobContext, "config" | "log">) {
  const http = createHttpClient({ timeoutMs: ctx.config.HTTP_TIMEOUT_MS, egress: egressGuard(ctx.config) });
  const response = await upstreamCall("health-check URL", () => http.get(payload.url));
  ctx.log.info("health-check URL pinged", { url: payload.url, status: response.statusCode, site_id: payload.site_id });
  return { status: response.statusCode };
}

/** Posts to CHAT_WEBHOOK_URL (from the environment, trusted): the job carries only its text, so a forged job cannot name where it goes. */
export async function chatMessage(_job: Job, payload: PayloadOf<typeof chatMessageJob>, ctx: Pick<JobContext, "config" | "log">) {
  const posted = await postChatMessage(ctx.config, payload.text);
  ctx.log.info("chat message posted", posted);
  return posted;
}

/** An operator alert; producers that name no key (dispute, SSL, order-volume alerts) are kept under the job's id. */
export async function alertEmail(job: Job, payload: PayloadOf<typeof alertEmailJob>, ctx: Pick<JobContext, "prisma" | "config" | "log">) {
  return deliverOperatorAlert(ctx, { ...payload, key: payload.key ?? job.id! });
}

import type { alertEmailJob, chatMessageJob, healthPingJob } from "@mw/shared/notifications";
import { AppError, createHttpClient, egressGuard, upstreamCall, type PayloadOf } from "@mw/platform";
import { sendAlertEmail } from "@mw/providers/mail";
import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

/** A site's health-check URL was entered through the API: the egress guard checks it. */
export async function healthPing(_job: Job, payload: PayloadOf<typeof healthPingJob>, ctx: JobContext) {
  const http = createHttpClient({ timeoutMs: ctx.config.HTTP_TIMEOUT_MS, egress: egressGuard(ctx.config) });
  const response = await upstreamCall("health-check URL", () => http.get(payload.url));
  ctx.log.info("health-check URL pinged", { url: payload.url, status: response.statusCode, site_id: payload.site_id });
  return { status: response.statusCode };
}

/** Posts to CHAT_WEBHOOK_URL (from the environment, trusted): the job carries only its text, so a forged job cannot name where it goes. */
export async function chatMessage(_job: Job, payload: PayloadOf<typeof chatMessageJob>, ctx: JobContext) {
  const webhook = ctx.config.CHAT_WEBHOOK_URL;
  if (!webhook) throw AppError.permanent("CHAT_WEBHOOK_URL is unset: the chat message has nowhere to go", "not_configured");
  const http = createHttpClient({ timeoutMs: ctx.config.HTTP_TIMEOUT_MS, setting: "CHAT_WEBHOOK_URL" });
  const response = await upstreamCall("chat webhook", () => http.post(webhook, { json: { text: payload.text } }));
  ctx.log.info("chat message posted", { status: response.statusCode });
  return { status: response.statusCode };
}

export async function alertEmail(_job: Job, payload: PayloadOf<typeof alertEmailJob>, ctx: JobContext) {
  return sendAlertEmail(ctx.config, ctx.log, payload);
}

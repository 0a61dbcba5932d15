import { createHttpClient, upstreamError, type JobPayload } from "@mw/shared";
import type { Job } from "bullmq";
import type { JobContext } from "./types.ts";

export async function healthPing(_job: Job, payload: JobPayload<"notifications", "health-ping">, ctx: JobContext) {
  const http = createHttpClient({ timeoutMs: ctx.config.HTTP_TIMEOUT_MS });
  try {
    const response = await http.get(payload.url);
    ctx.log.info("health-check URL pinged", { url: payload.url, status: response.statusCode, site_id: payload.site_id });
    return { status: response.statusCode };
  } catch (error) {
    throw upstreamError("health-check URL", error);
  }
}

export async function chatMessage(_job: Job, payload: JobPayload<"notifications", "chat-message">, ctx: JobContext) {
  const http = createHttpClient({ timeoutMs: ctx.config.HTTP_TIMEOUT_MS });
  try {
    const response = await http.post(payload.webhook_url, { json: { text: payload.text } });
    ctx.log.info("chat message posted", { status: response.statusCode });
    return { status: response.statusCode };
  } catch (error) {
    throw upstreamError("chat webhook", error);
  }
}

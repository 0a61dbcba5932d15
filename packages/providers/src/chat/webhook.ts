import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import { createHttpClient, upstreamCall } from "@mw/platform/http";

export type ChatConfig = Pick<Config, "CHAT_WEBHOOK_URL" | "HTTP_TIMEOUT_MS">;

/**
 * Posts `{text}` to CHAT_WEBHOOK_URL (a Slack or Google Chat incoming
 * webhook). The URL is the environment's, never a caller's, so nothing
 * written into a job can choose where the worker posts.
 */
export async function postChatMessage(config: ChatConfig, text: string): Promise<{ status: number }> {
  const webhook = config.CHAT_WEBHOOK_URL;
  if (!webhook) throw AppError.permanent("CHAT_WEBHOOK_URL is unset: the chat message has nowhere to go", "not_configured");
  const http = createHttpClient({ timeoutMs: config.HTTP_TIMEOUT_MS, setting: "CHAT_WEBHOOK_URL" });
  const response = await upstreamCall("chat webhook", () => http.post(webhook, { json: { text } }));
  return { status: response.statusCode };
}

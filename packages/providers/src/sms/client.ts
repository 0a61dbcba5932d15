import { z } from "zod";
import type { Config } from "@mw/platform/config";
import { createHttpClient, parseUpstream, upstreamCall } from "@mw/platform/http";

export type SmsConfig = Pick<Config, "SMS_API_URL" | "SMS_ACCOUNT_SID" | "SMS_AUTH_TOKEN" | "SMS_FROM" | "HTTP_TIMEOUT_MS">;

const message = z.object({ sid: z.string(), status: z.string() });

/** Twilio's error body: `{code, message, more_info, status}`; its code says why (21211 bad To, 20003 auth, 20429 rate). */
function twilioDetail(body: unknown) {
  const parsed = z.object({ code: z.number(), message: z.string() }).safeParse(body);
  return parsed.success ? { reason: `${parsed.data.code} ${parsed.data.message}`, data: { sms_code: parsed.data.code } } : undefined;
}

/** Whether SMS can be sent at all: without an account, token and sender the channel is skipped. */
export function smsConfigured(config: SmsConfig): config is SmsConfig & { SMS_ACCOUNT_SID: string; SMS_AUTH_TOKEN: string; SMS_FROM: string } {
  return Boolean(config.SMS_ACCOUNT_SID && config.SMS_AUTH_TOKEN && config.SMS_FROM);
}

/**
 * One text message through Twilio's Messages API (or one speaking it at
 * SMS_API_URL): form fields To, From (or MessagingServiceSid for an MG...
 * sender) and Body, at most 1600 characters.
 */
export async function sendSms(config: SmsConfig & { SMS_ACCOUNT_SID: string; SMS_AUTH_TOKEN: string; SMS_FROM: string }, to: string, body: string): Promise<{ sid: string; status: string }> {
  const http = createHttpClient({ baseUrl: config.SMS_API_URL, setting: "SMS_API_URL", timeoutMs: config.HTTP_TIMEOUT_MS });
  const sender = config.SMS_FROM.startsWith("MG") ? { MessagingServiceSid: config.SMS_FROM } : { From: config.SMS_FROM };
  const path = `2010-04-01/Accounts/${encodeURIComponent(config.SMS_ACCOUNT_SID)}/Messages.json`;
  const answer = await upstreamCall(
    "SMS API",
    () => http.post(path, { username: config.SMS_ACCOUNT_SID, password: config.SMS_AUTH_TOKEN, form: { To: to, ...sender, Body: body.slice(0, 1600) } }).json(),
    twilioDetail,
  );
  return parseUpstream("SMS API", path, message, answer);
}

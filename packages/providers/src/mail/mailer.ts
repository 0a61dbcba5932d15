import { hostname } from "node:os";
import nodemailer, { type NodemailerError } from "nodemailer";
import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";

export type MailConfig = Pick<Config, "SMTP_URL" | "MAIL_FROM" | "ALERT_EMAIL_TO" | "HTTP_TIMEOUT_MS">;

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends one plain-text message through SMTP_URL (`smtp://`, `smtps://`, with
 * credentials in the URL when the server wants them). Connecting, the greeting
 * and an idle socket are bounded by HTTP_TIMEOUT_MS rather than nodemailer's
 * minutes, so a dead server fails the job and BullMQ retries it.
 */
export async function sendMail(config: MailConfig & { SMTP_URL: string }, message: MailMessage): Promise<{ message_id: string; accepted: string[]; rejected: { recipient: string; reason: string }[] }> {
  const timeout = config.HTTP_TIMEOUT_MS;
  const transport = nodemailer.createTransport({ url: config.SMTP_URL, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout });
  try {
    const info = await transport.sendMail({ from: config.MAIL_FROM ?? `Middleware <middleware@${hostname()}>`, ...message });
    // A server refusing some recipients takes the message for the others; who was refused, and why, is the caller's to record.
    const reasons = new Map((info.rejectedErrors ?? []).map((error) => [String(error.recipient), error.response ?? error.message]));
    const rejected = info.rejected.map(String).map((recipient) => ({ recipient, reason: `SMTP server refused the recipient: ${reasons.get(recipient) ?? "no reason given"}` }));
    return { message_id: info.messageId, accepted: info.accepted.map(String), rejected };
  } catch (error) {
    throw mailError(error);
  } finally {
    transport.close();
  }
}

/** nodemailer marks a 5xx refusal `permanent`; a connection failure or a 4xx is worth another attempt. */
function mailError(error: unknown): AppError {
  const failure = error as NodemailerError;
  const reason = failure.response ?? failure.code ?? failure.message;
  const message = failure.responseCode ? `SMTP server refused the message: ${reason}` : `SMTP delivery failed: ${reason}`;
  const result = new AppError(502, "mail_failed", message, { smtp_code: failure.responseCode }, { cause: error });
  result.permanent = failure.permanent === true;
  return result;
}

import { hostname } from "node:os";
import nodemailer, { type NodemailerError } from "nodemailer";
import { AppError, type Config, type Logger } from "@mw/platform";

export type MailConfig = Pick<Config, "SMTP_URL" | "MAIL_FROM" | "ALERT_EMAIL_TO" | "HTTP_TIMEOUT_MS">;

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export type MailOutcome = { sent: true; message_id: string; accepted: string[] } | { skipped: "smtp_not_configured" | "no_alert_recipient" };

/**
 * Sends one plain-text message through SMTP_URL (`smtp://`, `smtps://`, with
 * credentials in the URL when the server wants them). Connecting, the greeting
 * and an idle socket are bounded by HTTP_TIMEOUT_MS rather than nodemailer's
 * minutes, so a dead server fails the job and BullMQ retries it.
 */
export async function sendMail(config: MailConfig & { SMTP_URL: string }, message: MailMessage): Promise<{ message_id: string; accepted: string[] }> {
  const timeout = config.HTTP_TIMEOUT_MS;
  const transport = nodemailer.createTransport({ url: config.SMTP_URL, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout });
  try {
    const info = await transport.sendMail({ from: config.MAIL_FROM ?? `Middleware <middleware@${hostname()}>`, ...message });
    return { message_id: info.messageId, accepted: info.accepted.map(String) };
  } catch (error) {
    throw mailError(error);
  } finally {
    transport.close();
  }
}

/** An operator alert to ALERT_EMAIL_TO. Mail is optional (design section 6): unset SMTP_URL or recipient is logged and skipped. */
export async function sendAlertEmail(config: MailConfig, log: Logger, alert: { subject: string; text: string }): Promise<MailOutcome> {
  const { SMTP_URL, ALERT_EMAIL_TO } = config;
  if (!SMTP_URL || !ALERT_EMAIL_TO) {
    const skipped = SMTP_URL ? "no_alert_recipient" : "smtp_not_configured";
    log.warn("alert e-mail skipped: SMTP_URL or ALERT_EMAIL_TO is unset", { skipped, subject: alert.subject });
    return { skipped };
  }
  const sent = await sendMail({ ...config, SMTP_URL }, { to: ALERT_EMAIL_TO, ...alert });
  log.info("alert e-mail sent", { subject: alert.subject, message_id: sent.message_id, accepted: sent.accepted });
  return { sent: true, ...sent };
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

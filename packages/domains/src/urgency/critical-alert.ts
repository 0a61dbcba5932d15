import type { Config } from "@mw/platform/config";
import type { Logger } from "@mw/platform/logging";
import type { Prisma, PrismaClient } from "@mw/platform/database";
import type { JobRun, Queues } from "@mw/platform/queues";
import { sendSms, smsConfigured } from "@mw/providers/sms";
import { htmlToText } from "../ai/index.ts";
import { byMail, deliverToEach, eachAlone, notifyStaff, raiseOperatorAlert, retryOf, type DeliveryLedger, type DeliveryState } from "../notifications/index.ts";
import { alertRecipients, ticketById, type Staff, type Ticket } from "../tickets/index.ts";
import type { AlertChannel } from "./jobs.ts";

interface AlertDeps {
  prisma: PrismaClient;
  config: Config;
  log: Logger;
  queues: Queues;
  delay: JobRun["delay"];
}

/** Each channel as the undelivered list names it. */
const CHANNEL_NAMES: Record<AlertChannel, string> = { email: "e-mail", sms: "SMS", browser: "browser" };

/** A browser recipient as the history and the undelivered list name them. */
const staffLabel = (staffId: number) => `staff ${staffId}`;
const staffOfLabel = (label: string) => Number(label.slice("staff ".length));

/** A channel's delivery state on its history row, beside what the row already says. */
function historyLedger(prisma: PrismaClient, rowId: number, detail: Record<string, unknown>): DeliveryLedger {
  let current = { ...detail };
  return {
    read: async () => current as Partial<DeliveryState>,
    write: async (state) => {
      current = { ...current, ...state };
      await prisma.aiHistory.update({ where: { id: rowId }, data: { detail: current as Prisma.InputJsonValue } });
    },
  };
}

function alertText(ticket: Ticket) {
  const percentage = `${ticket.ai_urgency_percentage ?? "?"}%`;
  const hours = ticket.ai_estimated_hours === null ? "unknown" : `${Number(ticket.ai_estimated_hours)} h`;
  return {
    subject: `[CRITICAL] Ticket #${ticket.number}: ${ticket.ai_suggested_title ?? ticket.subject}`,
    text: [
      `Ticket #${ticket.number} is CRITICAL.`,
      "",
      `Subject: ${ticket.subject}`,
      `Client: ${ticket.client_name ?? "unknown"}`,
      `Urgency: ${percentage}`,
      `Estimated hours: ${hours}`,
      "",
      "Summary:",
      htmlToText(ticket.ticket_summary ?? "") || "(none)",
    ].join("\n"),
    sms: `CRITICAL ticket #${ticket.number} (${percentage}, est. ${hours}): ${ticket.ai_suggested_title ?? ticket.subject}`.slice(0, 320),
  };
}

const unique = (values: (string | null)[]) => [...new Set(values.filter((value): value is string => Boolean(value)))];

/** Why each channel cannot reach the ticket's recipients; null where it can. */
function channelGaps(config: Config, recipients: Staff[]): Record<AlertChannel, string | null> {
  if (!recipients.length) {
    const none = "the ticket has no recipients (no assigned staff, project manager or department manager in the staff directory)";
    return { email: `e-mail: ${none}`, sms: `SMS: ${none}`, browser: `browser: ${none}` };
  }
  return {
    email: !config.SMTP_URL ? "e-mail: SMTP_URL is unset" : !unique(recipients.map((staff) => staff.email)).length ? "e-mail: none of the recipients has an e-mail address" : null,
    sms: !smsConfigured(config) ? "SMS: SMS_ACCOUNT_SID, SMS_AUTH_TOKEN or SMS_FROM is unset" : !unique(recipients.map((staff) => staff.phone)).length ? "SMS: none of the recipients has a phone number" : null,
    browser: null,
  };
}

/** The operators' copy of a ticket's CRITICAL alert: one per ticket, whichever channels fell short. */
const criticalFallbackKey = (ticketId: number) => `critical-alert.${ticketId}`;

/**
 * One channel of a ticket's CRITICAL alert, sent once (design 10.3 and 10.8):
 * the history row says whether it went; SMS recipients already reached are
 * noted on the row as they go, so a retry texts only the others. A channel
 * that is not configured, or has nobody to reach, hands the alert to the
 * operators (ALERT_EMAIL_TO, CHAT_WEBHOOK_URL) with the reasons: one
 * operator alert per ticket, owed in operator_alerts until it reached a
 * channel or an operator dismissed it.
 */
export async function sendCriticalAlert(deps: AlertDeps, ticketId: number, channel: AlertChannel): Promise<Record<string, unknown>> {
  const { prisma, config, log } = deps;
  const row = await prisma.aiHistory.findUnique({ where: { ticket_id_channel: { ticket_id: ticketId, channel } } });
  if (!row) return { skipped: "not_owed" };
  if (row.sent_at) return { skipped: "already_sent" };
  const ticket = await ticketById(deps, ticketId);
  if (!ticket) return { skipped: "ticket_missing" };
  const recipients = await alertRecipients(deps, ticket);
  const message = alertText(ticket);
  const detail = (row.detail ?? {}) as Record<string, unknown>;
  const gaps = channelGaps(config, recipients);
  const gap = gaps[channel];
  let outcome: Record<string, unknown>;

  if (gap) {
    const key = criticalFallbackKey(ticket.id);
    const reasons = Object.values(gaps).filter((reason): reason is string => reason !== null);
    await raiseOperatorAlert(deps, { key, subject: message.subject, text: message.text, reason: `the alert could not reach its own recipients (${reasons.join("; ")})` });
    outcome = { status: "not configured", outcome: "not configured (sent to the operators instead)", handed_to: "operators", reason: gap, operator_alert: key };
    log.warn("critical alert channel handed to the operators", { ticket_id: ticket.id, channel, reason: gap });
  } else {
    const delivery = { key: criticalFallbackKey(ticket.id), channel: CHANNEL_NAMES[channel], subject: message.subject, text: message.text, ledger: historyLedger(prisma, row.id, detail) };
    const delivered =
      channel === "email"
        ? await deliverToEach(deps, delivery, unique(recipients.map((staff) => staff.email)), byMail({ ...config, SMTP_URL: config.SMTP_URL! }, message))
        : channel === "sms"
          ? // No gap means SMS is configured.
            await deliverToEach(deps, delivery, unique(recipients.map((staff) => staff.phone)), eachAlone((phone) => sendSms(config as Parameters<typeof sendSms>[0], phone, message.sms)))
          : await deliverToEach(
              deps,
              delivery,
              recipients.map((staff) => staffLabel(staff.id)),
              eachAlone((label) => notifyStaff(deps, [{ staff_id: staffOfLabel(label), ticket_id: ticket.id, kind: "critical", title: `CRITICAL: ticket #${ticket.number}`, body: `${ticket.ai_suggested_title ?? ticket.subject} (${ticket.ai_urgency_percentage ?? "?"}%)` }])),
            );
    const retry = retryOf("CRITICAL alert", { [channel]: delivered });
    if (retry) return deps.delay(retry.wait, retry.reason);
    outcome = { ...delivered };
  }

  if (!gap) log.info("critical alert delivered", { ticket_id: ticket.id, ticket_number: ticket.number, channel, status: outcome.status });
  await prisma.aiHistory.update({ where: { id: row.id }, data: { sent_at: new Date(), detail: { ...detail, ...outcome } as Prisma.InputJsonValue } });
  return outcome;
}

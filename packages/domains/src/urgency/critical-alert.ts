import type { Config, JobRun, Logger, Prisma, PrismaClient, Queues } from "@mw/platform";
import { sendMail } from "@mw/providers/mail";
import { sendSms, smsConfigured } from "@mw/providers/sms";
import { htmlToText } from "../ai/index.ts";
import { nextDeliveryAttemptIn, notifyStaff, raiseOperatorAlert, recordFailedDelivery } from "../notifications/index.ts";
import { alertRecipients, ticketById, type Staff, type Ticket } from "../tickets/index.ts";
import type { AlertChannel } from "./jobs.ts";

interface AlertDeps {
  prisma: PrismaClient;
  config: Config;
  log: Logger;
  queues: Queues;
  delay: JobRun["delay"];
}

const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

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
  } else if (channel === "email") {
    outcome = await deliverEach(deps, { row, detail, channel, ticketId: ticket.id, message }, unique(recipients.map((staff) => staff.email)), async (to) => {
      const sent = await sendMail({ ...config, SMTP_URL: config.SMTP_URL! }, { to: to.join(", "), subject: message.subject, text: message.text });
      return new Map(sent.rejected.map((each) => [each.recipient, each.reason]));
    });
  } else if (channel === "sms") {
    outcome = await deliverEach(deps, { row, detail, channel, ticketId: ticket.id, message }, unique(recipients.map((staff) => staff.phone)), async (to, markReached) => {
      const failed = new Map<string, string>();
      // One number the provider refuses must not keep the alert from the numbers after it.
      for (const phone of to) {
        try {
          // No gap means SMS is configured.
          await sendSms(config as Parameters<typeof sendSms>[0], phone, message.sms);
          await markReached(phone);
        } catch (error) {
          failed.set(phone, errorMessage(error));
        }
      }
      return failed;
    });
  } else {
    const staffIds = recipients.map((staff) => staff.id);
    const created = await notifyStaff(
      deps,
      staffIds.map((staff_id) => ({ staff_id, ticket_id: ticket.id, kind: "critical", title: `CRITICAL: ticket #${ticket.number}`, body: `${ticket.ai_suggested_title ?? ticket.subject} (${ticket.ai_urgency_percentage ?? "?"}%)` })),
    );
    outcome = { status: "sent", notified: staffIds, created };
  }

  if (!gap) log.info("critical alert delivered", { ticket_id: ticket.id, ticket_number: ticket.number, channel, status: outcome.status });
  await prisma.aiHistory.update({ where: { id: row.id }, data: { sent_at: new Date(), detail: { ...detail, ...outcome } as Prisma.InputJsonValue } });
  return outcome;
}

interface Delivery {
  row: { id: number };
  detail: Record<string, unknown>;
  channel: AlertChannel;
  ticketId: number;
  message: { subject: string; text: string };
}

/**
 * Delivers to each recipient not reached yet; `send` answers the ones that
 * failed, with the provider's answer. Reached recipients are stored
 * as they go, so a later attempt sends only to the others. Failures are
 * tried again after ALERT_DELIVERY_BACKOFF_MS (doubling) until
 * ALERT_DELIVERY_ATTEMPTS; then each recipient still failing is an operator
 * alert naming them, and the history says who got it and who did not, why.
 */
async function deliverEach(deps: AlertDeps, delivery: Delivery, recipients: string[], send: (to: string[], markReached: (recipient: string) => Promise<void>) => Promise<Map<string, string>>): Promise<Record<string, unknown>> {
  const { prisma, config } = deps;
  const reached = new Set((delivery.detail.sent_to as string[] | undefined) ?? []);
  const owed = recipients.filter((recipient) => !reached.has(recipient));
  let failed: Map<string, string>;
  try {
    // Stored as each is reached, so a process dying mid-loop does not text anyone twice.
    const markReached = async (recipient: string) => {
      reached.add(recipient);
      await prisma.aiHistory.update({ where: { id: delivery.row.id }, data: { detail: { ...delivery.detail, sent_to: [...reached] } as Prisma.InputJsonValue } });
    };
    failed = owed.length ? await send(owed, markReached) : new Map();
  } catch (error) {
    failed = new Map(owed.map((recipient) => [recipient, errorMessage(error)]));
  }
  for (const recipient of owed) if (!failed.has(recipient)) reached.add(recipient);
  const attempts = Number(delivery.detail.attempts ?? 0) + 1;
  const state = { sent_to: [...reached], failed: Object.fromEntries(failed), attempts };
  if (!failed.size) return { status: "sent", ...state };
  await prisma.aiHistory.update({ where: { id: delivery.row.id }, data: { detail: { ...delivery.detail, ...state } as Prisma.InputJsonValue } });
  const wait = nextDeliveryAttemptIn(config, attempts);
  const reasons = [...failed].map(([recipient, reason]) => `${recipient}: ${reason}`).join("; ");
  if (wait !== null) return deps.delay(wait, `CRITICAL alert ${delivery.channel} attempt ${attempts} failed for ${reasons}`);
  const operatorAlerts: string[] = [];
  for (const [recipient, error] of failed) {
    operatorAlerts.push(await recordFailedDelivery(deps, { key: `critical-alert.${delivery.ticketId}`, channel: delivery.channel === "email" ? "e-mail" : "SMS", recipient, error, ...delivery.message }));
  }
  deps.log.error("critical alert undelivered to some recipients", { ticket_id: delivery.ticketId, channel: delivery.channel, failed: reasons });
  return { status: reached.size ? "partly sent" : "failed", outcome: `failed (${reasons}); sent to the operators instead`, ...state, operator_alerts: operatorAlerts };
}

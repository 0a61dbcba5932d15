import type { Config, Logger, Prisma, PrismaClient } from "@mw/platform";
import { sendMail } from "@mw/providers/mail";
import { sendSms, smsConfigured } from "@mw/providers/sms";
import { htmlToText } from "../ai/index.ts";
import { notifyStaff } from "../notifications/index.ts";
import { alertRecipients, ticketById, type Ticket } from "../tickets/index.ts";
import type { AlertChannel } from "./jobs.ts";

export interface AlertDeps {
  prisma: PrismaClient;
  config: Config;
  log: Logger;
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

/**
 * One channel of a ticket's CRITICAL alert, sent once (design 10.3 and 10.8):
 * the history row says whether it went; SMS recipients already reached are
 * noted on the row as they go, so a retry texts only the others. An
 * unconfigured channel is logged and recorded as skipped, not sent later.
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
  let outcome: Record<string, unknown>;

  if (channel === "email") {
    const to = [...new Set(recipients.map((staff) => staff.email).filter((email): email is string => Boolean(email)))];
    if (!config.SMTP_URL) outcome = { skipped: "smtp_not_configured" };
    else if (!to.length) outcome = { skipped: "no_recipients" };
    else {
      const sent = await sendMail({ ...config, SMTP_URL: config.SMTP_URL }, { to: to.join(", "), subject: message.subject, text: message.text });
      outcome = { sent_to: to, message_id: sent.message_id };
    }
  } else if (channel === "sms") {
    const phones = [...new Set(recipients.map((staff) => staff.phone).filter((phone): phone is string => Boolean(phone)))];
    const reached = new Set((detail.sent_to as string[] | undefined) ?? []);
    if (!smsConfigured(config)) outcome = { skipped: "sms_not_configured" };
    else if (!phones.length) outcome = { skipped: "no_recipients" };
    else {
      for (const phone of phones.filter((phone) => !reached.has(phone))) {
        await sendSms(config, phone, message.sms);
        reached.add(phone);
        await prisma.aiHistory.update({ where: { id: row.id }, data: { detail: { ...detail, sent_to: [...reached] } as Prisma.InputJsonValue } });
      }
      outcome = { sent_to: [...reached] };
    }
  } else {
    const staffIds = recipients.map((staff) => staff.id);
    const created = await notifyStaff(
      deps,
      staffIds.map((staff_id) => ({ staff_id, ticket_id: ticket.id, kind: "critical", title: `CRITICAL: ticket #${ticket.number}`, body: `${ticket.ai_suggested_title ?? ticket.subject} (${ticket.ai_urgency_percentage ?? "?"}%)` })),
    );
    outcome = staffIds.length ? { notified: staffIds, created } : { skipped: "no_recipients" };
  }

  if ("skipped" in outcome) log.warn("critical alert channel skipped", { ticket_id: ticket.id, channel, reason: outcome.skipped });
  else log.info("critical alert sent", { ticket_id: ticket.id, ticket_number: ticket.number, channel });
  await prisma.aiHistory.update({ where: { id: row.id }, data: { sent_at: new Date(), detail: { ...detail, ...outcome } as Prisma.InputJsonValue } });
  return outcome;
}

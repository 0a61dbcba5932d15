import type { PayloadOf, Prisma, PrismaClient } from "@mw/platform";
import { htmlToText } from "@mw/shared/ai";
import { sendMail } from "@mw/providers/mail";
import { sendSms, smsConfigured } from "@mw/providers/sms";
import type { criticalAlertJob } from "@mw/shared/tickets";

import type { Job } from "bullmq";
import type { JobContext } from "../../runtime/processor.ts";

type Ticket = NonNullable<Awaited<ReturnType<PrismaClient["ticket"]["findUnique"]>>>;
type StaffMember = Awaited<ReturnType<PrismaClient["staff"]["findMany"]>>[number];

/**
 * Spec 2, 6: the assigned staff member, the project managers and the
 * department manager. Project managers are the staff flagged so in the
 * ticket's department (all of them for a ticket without one); the department
 * manager is the one the ticket names, else the department's flagged one.
 */
export async function alertRecipients(prisma: PrismaClient, ticket: Ticket): Promise<StaffMember[]> {
  const department = ticket.department_id === null ? {} : { department_id: ticket.department_id };
  const ids = [ticket.assigned_staff_id, ticket.department_manager_staff_id].filter((id): id is number => id !== null);
  const staff = await prisma.staff.findMany({
    where: {
      OR: [
        { id: { in: ids } },
        { is_project_manager: true, ...department },
        ...(ticket.department_manager_staff_id === null && ticket.department_id !== null ? [{ is_department_manager: true, department_id: ticket.department_id }] : []),
      ],
    },
    orderBy: { id: "asc" },
  });
  return staff;
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
export async function criticalAlert(_job: Job, payload: PayloadOf<typeof criticalAlertJob>, ctx: JobContext) {
  const { prisma, config, log } = ctx;
  const row = await prisma.aiHistory.findUnique({ where: { ticket_id_channel: { ticket_id: payload.ticket_id, channel: payload.channel } } });
  if (!row) return { skipped: "not_owed" };
  if (row.sent_at) return { skipped: "already_sent" };
  const ticket = await prisma.ticket.findUnique({ where: { id: payload.ticket_id } });
  if (!ticket) return { skipped: "ticket_missing" };
  const recipients = await alertRecipients(prisma, ticket);
  const message = alertText(ticket);
  const detail = (row.detail ?? {}) as Record<string, unknown>;
  let outcome: Record<string, unknown>;

  if (payload.channel === "email") {
    const to = [...new Set(recipients.map((staff) => staff.email).filter((email): email is string => Boolean(email)))];
    if (!config.SMTP_URL) outcome = { skipped: "smtp_not_configured" };
    else if (!to.length) outcome = { skipped: "no_recipients" };
    else {
      const sent = await sendMail({ ...config, SMTP_URL: config.SMTP_URL }, { to: to.join(", "), subject: message.subject, text: message.text });
      outcome = { sent_to: to, message_id: sent.message_id };
    }
  } else if (payload.channel === "sms") {
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
    const created = await prisma.staffNotification.createMany({
      data: staffIds.map((staff_id) => ({ staff_id, ticket_id: ticket.id, kind: "critical", title: `CRITICAL: ticket #${ticket.number}`, body: `${ticket.ai_suggested_title ?? ticket.subject} (${ticket.ai_urgency_percentage ?? "?"}%)` })),
      skipDuplicates: true,
    });
    outcome = staffIds.length ? { notified: staffIds, created: created.count } : { skipped: "no_recipients" };
  }

  if ("skipped" in outcome) log.warn("critical alert channel skipped", { ticket_id: ticket.id, channel: payload.channel, reason: outcome.skipped });
  else log.info("critical alert sent", { ticket_id: ticket.id, ticket_number: ticket.number, channel: payload.channel });
  await prisma.aiHistory.update({ where: { id: row.id }, data: { sent_at: new Date(), detail: { ...detail, ...outcome } as Prisma.InputJsonValue } });
  return outcome;
}

import type { Logger, PrismaClient } from "@mw/platform";
import { sendMail, type MailConfig } from "@mw/providers/mail";
import { notifyStaff } from "../notifications/index.ts";
import { staffMember, ticketById } from "../tickets/index.ts";

/** Spec 2, 6: the over-budget lock notifies the ticket's project manager, by e-mail and in the browser, once per lock. */
export async function sendBudgetLockNotice(deps: { prisma: PrismaClient; config: MailConfig; log: Logger }, eventId: number) {
  const { config, log } = deps;
  const event = await deps.prisma.timeEvent.findUnique({ where: { id: eventId } });
  if (!event || event.staff_id === null) {
    log.warn("budget lock notice skipped: no project manager known", { event_id: eventId });
    return { skipped: "no_project_manager" };
  }
  const [ticket, manager] = await Promise.all([ticketById(deps, event.ticket_id), staffMember(deps, event.staff_id)]);
  if (!ticket) throw new Error(`The locked ticket ${event.ticket_id} is not in the mirror.`);
  const title = `Ticket #${ticket.number} is over budget and locked`;
  const body = `${Number(event.hours_used)} h used of a ${Number(event.budget)} h budget. Only you can unlock it (timetracking/unlock/${ticket.id}).`;
  await notifyStaff(deps, [{ staff_id: event.staff_id, ticket_id: ticket.id, kind: `budget_lock.${event.id}`, title, body }]);
  if (config.SMTP_URL && manager?.email) {
    await sendMail({ ...config, SMTP_URL: config.SMTP_URL }, { to: manager.email, subject: title, text: `${title}.\n\nSubject: ${ticket.subject}\n${body}` });
    return { notified: event.staff_id, emailed: manager.email };
  }
  log.warn("budget lock e-mail skipped", { reason: config.SMTP_URL ? "no e-mail for the project manager" : "SMTP_URL is unset", staff_id: event.staff_id });
  return { notified: event.staff_id, emailed: null };
}

import type { Logger, PrismaClient, Queues } from "@mw/platform";
import { sendMail, type MailConfig } from "@mw/providers/mail";
import { notifyStaff, raiseOperatorAlert } from "../notifications/index.ts";
import { staffMember, ticketById } from "../tickets/index.ts";

/**
 * Spec 2, 6: the over-budget lock notifies the ticket's project manager, by
 * e-mail and in the browser, once per lock. What cannot reach the manager
 * (no manager known, no e-mail address, SMTP_URL unset) goes to the
 * operators with the reason, rather than nowhere.
 */
export async function sendBudgetLockNotice(deps: { prisma: PrismaClient; queues: Queues; config: MailConfig; log: Logger }, eventId: number) {
  const { config, log } = deps;
  const event = await deps.prisma.timeEvent.findUnique({ where: { id: eventId } });
  if (!event) return { skipped: "event_missing" };
  const ticket = await ticketById(deps, event.ticket_id);
  if (!ticket) throw new Error(`The locked ticket ${event.ticket_id} is not in the mirror.`);
  const title = `Ticket #${ticket.number} is over budget and locked`;
  const used = `${Number(event.hours_used)} h used of a ${Number(event.budget)} h budget.`;
  const body = `${used} Only you can unlock it (timetracking/unlock/${ticket.id}).`;
  const text = `${title}.\n\nSubject: ${ticket.subject}\n${body}`;
  const toOperators = async (reason: string) => {
    log.warn("budget lock notice handed to the operators", { event_id: event.id, reason });
    const operatorText = `${title}.\n\nSubject: ${ticket.subject}\n${used} Only its project manager can unlock it (timetracking/unlock/${ticket.id}).`;
    await raiseOperatorAlert(deps, { key: `budget-lock.${event.id}`, subject: title, text: operatorText, reason });
  };
  if (event.staff_id === null) {
    await toOperators("the ticket has no project manager to notify");
    return { notified: null, emailed: null, handed_to: "operators" };
  }
  const manager = await staffMember(deps, event.staff_id);
  await notifyStaff(deps, [{ staff_id: event.staff_id, ticket_id: ticket.id, kind: `budget_lock.${event.id}`, title, body }]);
  if (config.SMTP_URL && manager?.email) {
    await sendMail({ ...config, SMTP_URL: config.SMTP_URL }, { to: manager.email, subject: title, text });
    return { notified: event.staff_id, emailed: manager.email };
  }
  await toOperators(config.SMTP_URL ? `the project manager (staff ${event.staff_id}) has no e-mail address` : "SMTP_URL is unset, so the project manager could not be e-mailed");
  return { notified: event.staff_id, emailed: null, handed_to: "operators" };
}

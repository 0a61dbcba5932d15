import type { Config } from "@mw/platform/config";
import type { Logger } from "@mw/platform/logging";
import type { RedisClient } from "@mw/platform/redis";
import type { PrismaClient } from "@mw/platform/database";
import type { JobRun, Queues } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import type { MailConfig } from "@mw/providers/mail";
import { byMail, deliverToEach, eachAlone, notifyStaff, raiseOperatorAlert, redisLedger, retryOf, type DeliveryRetryConfig, type DeliveryState } from "../notifications/index.ts";
import { staffMember, ticketById } from "../tickets/index.ts";

/** A lock notice's channels, as its outcomes and its undelivered alerts name them. */
const NOTICE_CHANNELS = ["browser", "e-mail"] as const;
const noticeKey = (eventId: number) => `budget-lock.${eventId}`;

type NoticeDeps = { prisma: PrismaClient; queues: Queues; redis: RedisClient; config: MailConfig & DeliveryRetryConfig & Pick<Config, "QUEUE_PREFIX">; log: Logger } & Pick<JobRun, "delay">;

/**
 * Spec 2, 6: the over-budget lock notifies the ticket's project manager, by
 * e-mail and in the browser, once per lock. What cannot reach the manager
 * (no manager known, no e-mail address, SMTP_URL unset) goes to the
 * operators with the reason, rather than nowhere. Each channel is retried on
 * its own (ALERT_DELIVERY_ATTEMPTS, ALERT_DELIVERY_BACKOFF_MS doubling), one
 * failing never holding back the other; a channel that never reached the
 * manager is on the operators' undelivered list, naming the manager, the
 * channel and the provider's answer.
 */
export async function sendBudgetLockNotice(deps: NoticeDeps, eventId: number) {
  const { config, log } = deps;
  const event = await deps.prisma.timeEvent.findUnique({ where: { id: eventId } });
  if (!event) return { skipped: "event_missing" };
  const ticket = await ticketById(deps, event.ticket_id);
  if (!ticket) throw new Error(`The locked ticket ${event.ticket_id} is not in the mirror.`);
  const title = `Ticket #${ticket.number} is over budget and locked`;
  const used = `${Number(event.hours_used)} h used of a ${Number(event.budget)} h budget.`;
  const body = `${used} Only you can unlock it (timetracking/unlock/${ticket.id}).`;
  const text = `${title}.\n\nSubject: ${ticket.subject}\n${body}`;
  const key = noticeKey(event.id);
  const toOperators = async (reason: string) => {
    log.warn("budget lock notice handed to the operators", { event_id: event.id, reason });
    const operatorText = `${title}.\n\nSubject: ${ticket.subject}\n${used} Only its project manager can unlock it (timetracking/unlock/${ticket.id}).`;
    await raiseOperatorAlert(deps, { key, subject: title, text: operatorText, reason });
  };
  if (event.staff_id === null) {
    await toOperators("the ticket has no project manager to notify");
    return { notified: null, emailed: null, handed_to: "operators" };
  }
  const staffId = event.staff_id;
  const manager = await staffMember(deps, staffId);
  const delivery = (channel: (typeof NOTICE_CHANNELS)[number]) => ({ key, channel, subject: title, text, ledger: redisLedger(deps, `${key}.${channel}`) });
  const browser = await deliverToEach(
    deps,
    delivery("browser"),
    [`staff ${staffId}`],
    eachAlone(() => notifyStaff(deps, [{ staff_id: staffId, ticket_id: ticket.id, kind: `budget_lock.${event.id}`, title, body }])),
  );
  const email = config.SMTP_URL && manager?.email ? await deliverToEach(deps, delivery("e-mail"), [manager.email], byMail({ ...config, SMTP_URL: config.SMTP_URL }, { subject: title, text })) : null;
  const retry = retryOf("budget lock notice", { browser, "e-mail": email });
  if (retry) return deps.delay(retry.wait, retry.reason);
  const notified = browser.status === "sent" ? staffId : null;
  if (email) return { notified, emailed: email.status === "sent" ? manager!.email : null, browser, email };
  const reason = config.SMTP_URL ? `the project manager (staff ${staffId}) has no e-mail address` : "SMTP_URL is unset, so the project manager could not be e-mailed";
  await toOperators(reason);
  const notConfigured: DeliveryState = { sent_to: [], failed: {}, attempts: 0, status: "not configured", outcome: `not configured (sent to the operators instead): ${reason}` };
  await delivery("e-mail").ledger.write(notConfigured);
  return { notified, emailed: null, browser, email: notConfigured };
}

/** One channel of a lock's notice as the ticket's timeline shows it: its final status, or `retrying` while attempts remain. */
export type NoticeOutcome = Omit<DeliveryState, "status"> & { status: NonNullable<DeliveryState["status"]> | "retrying" };

/** What the lock's notice did so far, per channel (a channel not tried yet is absent). */
export async function lockNoticeOutcomes(deps: Pick<Connections, "redis" | "config">, eventId: number): Promise<Record<string, NoticeOutcome>> {
  const outcomes: Record<string, NoticeOutcome> = {};
  for (const channel of NOTICE_CHANNELS) {
    const state = await redisLedger(deps, `${noticeKey(eventId)}.${channel}`).read();
    if (state.attempts === undefined && !state.status) continue;
    outcomes[channel] = { ...state, sent_to: state.sent_to ?? [], failed: state.failed ?? {}, attempts: state.attempts ?? 0, status: state.status ?? "retrying" };
  }
  return outcomes;
}

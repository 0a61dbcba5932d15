import type { Logger } from "@mw/platform/logging";
import type { Prisma, PrismaClient } from "@mw/platform/database";
import { truncateCodePoints as truncate } from "@mw/platform/text";
import type { Queues } from "@mw/platform/queues";
import { postChatMessage, type ChatConfig } from "@mw/providers/chat";
import { sendMail, type MailConfig } from "@mw/providers/mail";
import { errorMessage } from "./delivery-failures.ts";
import { alertEmailJob, operatorAlertJobId } from "./jobs.ts";

type OperatorChannel = "email" | "chat";
type OperatorAlertConfig = MailConfig & ChatConfig;

interface OperatorAlertInput {
  /** Who raised it and for what: raising the same key again changes nothing. */
  key: string;
  subject: string;
  text: string;
  /** Why it came to the operators rather than to its own recipients. */
  reason?: string;
}

const NO_OPERATOR_CHANNEL = "no channel: set ALERT_EMAIL_TO (with SMTP_URL) or CHAT_WEBHOOK_URL";

/** The channels that reach the operators: e-mail needs both SMTP_URL and ALERT_EMAIL_TO. */
function operatorChannels(config: OperatorAlertConfig): OperatorChannel[] {
  return [...(config.SMTP_URL && config.ALERT_EMAIL_TO ? (["email"] as const) : []), ...(config.CHAT_WEBHOOK_URL ? (["chat"] as const) : [])];
}

/** Queues the alert's delivery; its job id is the key's, so raising it twice (concurrent channels, a retry) sends it once. */
export async function raiseOperatorAlert(deps: { queues: Queues }, alert: OperatorAlertInput): Promise<void> {
  await deps.queues.add(alertEmailJob, { ...alert, subject: truncate(alert.subject, 200), reason: alert.reason && truncate(alert.reason, 500) }, { jobId: operatorAlertJobId(alert.key) });
}

type OperatorAlertOutcome = { sent_to: OperatorChannel[] } | { skipped: "already_delivered" | "already_dismissed" } | { undelivered: string };

/**
 * Sends an operator alert on every operator channel it has not reached yet
 * (stored by key first, so a resend reads what was raised). Reaching one
 * channel delivers it; reaching none leaves it `undelivered` for the
 * operations page and /readyz, and a failure is thrown for BullMQ to retry.
 */
export async function deliverOperatorAlert(deps: { prisma: PrismaClient; config: OperatorAlertConfig; log: Logger }, alert: OperatorAlertInput): Promise<OperatorAlertOutcome> {
  const { prisma, config, log } = deps;
  const row = await prisma.operatorAlert.upsert({
    where: { alert_key: alert.key },
    create: { alert_key: alert.key, subject: alert.subject, text: alert.text, reason: alert.reason ?? null },
    update: {},
  });
  if (row.status === "delivered" || row.status === "dismissed") return { skipped: `already_${row.status}` };
  const reached = new Set((row.channels as OperatorChannel[] | null) ?? []);
  const text = row.reason ? `${row.text}\n\nWhy this came to you: ${row.reason}` : row.text;
  const channels = operatorChannels(config);
  const failures: string[] = [];
  for (const channel of channels.filter((each) => !reached.has(each))) {
    try {
      if (channel === "email") await sendMail({ ...config, SMTP_URL: config.SMTP_URL! }, { to: config.ALERT_EMAIL_TO!, subject: row.subject, text });
      else await postChatMessage(config, `${row.subject}\n\n${text}`);
      reached.add(channel);
      await prisma.operatorAlert.update({ where: { id: row.id }, data: { channels: [...reached] as Prisma.InputJsonValue } });
    } catch (error) {
      failures.push(`${channel}: ${errorMessage(error)}`);
      log.warn("operator alert channel failed", { key: row.alert_key, channel, error: errorMessage(error) });
    }
  }
  if (reached.size) {
    await prisma.operatorAlert.update({ where: { id: row.id }, data: { status: "delivered", delivered_at: new Date(), last_error: failures.length ? truncate(failures.join("; "), 500) : null } });
    log.info("operator alert sent", { key: row.alert_key, channels: [...reached], reason: row.reason });
    return { sent_to: [...reached] };
  }
  const lastError = truncate(channels.length ? failures.join("; ") : NO_OPERATOR_CHANNEL, 500);
  await prisma.operatorAlert.update({ where: { id: row.id }, data: { status: "undelivered", last_error: lastError } });
  log.error("operator alert undelivered", { key: row.alert_key, subject: row.subject, error: lastError });
  if (channels.length) throw new Error(`The operator alert ${row.alert_key} reached no channel: ${lastError}`);
  return { undelivered: lastError };
}

interface UndeliveredAlertView {
  id: number;
  key: string;
  subject: string;
  reason: string | null;
  last_error: string | null;
  created: string;
}

/** The alerts that reached nobody and no operator has decided about, newest first. */
export async function undeliveredOperatorAlerts({ prisma }: { prisma: PrismaClient }, limit = 100): Promise<UndeliveredAlertView[]> {
  const rows = await prisma.operatorAlert.findMany({ where: { status: "undelivered" }, orderBy: { id: "desc" }, take: limit });
  return rows.map((row) => ({ id: row.id, key: row.alert_key, subject: row.subject, reason: row.reason, last_error: row.last_error, created: row.created.toISOString() }));
}

/** An operator asks for another attempt: queued under a job id of its own (the first job may still be kept as completed). */
export async function resendOperatorAlert(deps: { prisma: PrismaClient; queues: Queues }, id: number, by: string): Promise<"queued" | "not_undelivered"> {
  const claimed = await deps.prisma.operatorAlert.updateMany({ where: { id, status: "undelivered" }, data: { status: "pending", resolved_by: by } });
  if (!claimed.count) return "not_undelivered";
  const row = await deps.prisma.operatorAlert.findUniqueOrThrow({ where: { id } });
  try {
    await deps.queues.add(alertEmailJob, { key: row.alert_key, subject: truncate(row.subject, 200), text: row.text }, { jobId: operatorAlertJobId(row.alert_key, Date.now()) });
  } catch (error) {
    // Left pending, no job would ever deliver it and it would drop off the list: it stays undelivered, saying why.
    await deps.prisma.operatorAlert.update({ where: { id }, data: { status: "undelivered", last_error: truncate(`resend could not be queued: ${errorMessage(error)}`, 500) } });
    throw error;
  }
  return "queued";
}

/** An operator's decision that an undelivered alert needs no delivery: it leaves the list and /readyz. */
export async function dismissOperatorAlert({ prisma }: { prisma: PrismaClient }, id: number, by: string): Promise<boolean> {
  const result = await prisma.operatorAlert.updateMany({ where: { id, status: "undelivered" }, data: { status: "dismissed", resolved_by: by } });
  return result.count === 1;
}

/** /readyz's alerts check: degraded while an alert reached nobody, saying whether any channel is configured at all. */
export async function alertsCheck({ prisma, config }: { prisma: PrismaClient; config: OperatorAlertConfig }): Promise<{ ok: boolean; error?: string; undelivered: number }> {
  const undelivered = await prisma.operatorAlert.count({ where: { status: "undelivered" } });
  if (!undelivered) return { ok: true, undelivered };
  return { ok: false, error: operatorChannels(config).length ? `alerts: ${undelivered} undelivered` : "alerts: no channel", undelivered };
}

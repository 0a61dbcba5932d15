import { setTimeout as sleep } from "node:timers/promises";
import { criticalAlertJob, criticalAlertJobId } from "@mw/domains/urgency";
import { createRedis, Queues, type PrismaClient } from "@mw/platform";
import type { FakeSms } from "../../test/fakes/sms.ts";
import type { FakeSmtp } from "../../test/fakes/smtp.ts";
import { seedCriticalTicket } from "../support/seed.ts";

/** One channel of the scenario's alert: how often each recipient got it, and whether the refused one reached the operators. */
export interface ChannelResult {
  channel: "e-mail" | "SMS";
  /** Messages the recipient the provider takes received: exactly 1 is right. */
  delivered: number;
  /** The refused recipient's operator alert, as the undelivered list shows it (null: none). */
  operatorAlert: { status: string; last_error: string | null } | null;
  /** The ticket history's outcome of the channel. */
  outcome: string;
}

/**
 * A CRITICAL alert to two recipients while the SMTP server refuses the first
 * one's address and the SMS provider the first one's number: the worker's
 * retries must leave the second recipient exactly one message on each
 * channel, and each refusal on the operators' undelivered list.
 */
export async function runDeliveryFailure(prisma: PrismaClient, redisUrl: string, prefix: string, fakes: { smtp: FakeSmtp; sms: FakeSms }, limitMs = 60_000): Promise<ChannelResult[]> {
  const ticketId = 900_000 + Math.floor(Math.random() * 99_999);
  const staff = [1, 2].map((n) => ({ id: ticketId * 10 + n, name: `Recipient ${n}`, email: `recipient${n}.${ticketId}@agency.example`, phone: `+1555${n}${String(ticketId).slice(-6)}` })) as [
    { id: number; name: string; email: string; phone: string },
    { id: number; name: string; email: string; phone: string },
  ];
  fakes.smtp.refuse.add(staff[0].email);
  fakes.sms.refuse.add(staff[0].phone);
  await seedCriticalTicket(prisma, ticketId, staff);
  const redis = createRedis(redisUrl, { name: "mw-chaos-delivery" });
  const queues = new Queues(redis, prefix);
  try {
    for (const channel of ["email", "sms"] as const) await queues.add(criticalAlertJob, { ticket_id: ticketId, channel }, { jobId: criticalAlertJobId(ticketId, channel) });
  } finally {
    await queues.close();
    await redis.quit().catch(() => redis.disconnect());
  }
  const deadline = Date.now() + limitMs;
  const history = () => prisma.aiHistory.findMany({ where: { ticket_id: ticketId } });
  while ((await history()).some((row) => !row.sent_at) && Date.now() < deadline) await sleep(250);
  const rows = await history();
  const alert = (channel: string, recipient: string) => prisma.operatorAlert.findUnique({ where: { alert_key: `critical-alert.${ticketId}.${channel}.${recipient}` }, select: { status: true, last_error: true } });
  const outcome = (channel: string) => {
    const row = rows.find((each) => each.channel === channel);
    return row?.sent_at ? String((row.detail as { status?: string } | null)?.status) : "not finished";
  };
  return [
    { channel: "e-mail", delivered: fakes.smtp.messages.filter((mail) => mail.to.includes(staff[1].email)).length, operatorAlert: await alert("e-mail", staff[0].email), outcome: outcome("email") },
    { channel: "SMS", delivered: fakes.sms.sent.filter((text) => text.to === staff[1].phone).length, operatorAlert: await alert("SMS", staff[0].phone), outcome: outcome("sms") },
  ];
}

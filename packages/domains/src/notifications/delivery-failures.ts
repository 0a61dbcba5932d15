import type { Config } from "@mw/platform/config";
import type { Logger } from "@mw/platform/logging";
import type { RedisClient } from "@mw/platform/redis";
import type { PrismaClient } from "@mw/platform/database";
import { truncateCodePoints as truncate } from "@mw/platform/text";
import { sendMail, type MailConfig } from "@mw/providers/mail";

export type DeliveryRetryConfig = Pick<Config, "ALERT_DELIVERY_ATTEMPTS" | "ALERT_DELIVERY_BACKOFF_MS">;

/** A provider's or a queue's failure as operators read it. */
export const errorMessage = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The wait before the next attempt after `attempts` failed ones (ALERT_DELIVERY_BACKOFF_MS, doubling); null once ALERT_DELIVERY_ATTEMPTS are used. */
function nextDeliveryAttemptIn(config: DeliveryRetryConfig, attempts: number): number | null {
  return attempts < config.ALERT_DELIVERY_ATTEMPTS ? config.ALERT_DELIVERY_BACKOFF_MS * 2 ** (attempts - 1) : null;
}

export interface FailedDelivery {
  /** What was being delivered, e.g. `critical-alert.42`: the operator alert's key starts with it. */
  key: string;
  channel: string;
  recipient: string;
  /** The provider's answer to the last attempt. */
  error: string;
  subject: string;
  text: string;
}

/** The one operator alert of a recipient a delivery's channel never reached. */
const failedDeliveryKey = (failure: Pick<FailedDelivery, "key" | "channel" | "recipient">) => truncate(`${failure.key}.${failure.channel}.${failure.recipient}`, 191);

/**
 * A recipient no attempt reached: an operator alert naming the recipient,
 * the channel and the provider's answer, on the undelivered list (and
 * /readyz) until an operator resends it to the operators' channels or
 * dismisses it. Raised once per delivery, channel and recipient: recording
 * it again (a retried job, a rerun) leaves the row as it is, so one an
 * operator resent or dismissed does not come back.
 */
async function recordFailedDelivery({ prisma }: { prisma: PrismaClient }, failure: FailedDelivery): Promise<string> {
  const key = failedDeliveryKey(failure);
  const why = truncate(`${failure.channel} to ${failure.recipient} failed: ${failure.error}`, 500);
  await prisma.operatorAlert.upsert({
    where: { alert_key: key },
    create: { alert_key: key, subject: truncate(`Undelivered: ${failure.subject}`, 200), text: failure.text, reason: why, status: "undelivered", last_error: why },
    update: {},
  });
  return key;
}

/** What the attempts of one channel of a delivery left: who was reached, who was not and why, how many attempts, and the final status once there is one. */
export interface DeliveryState {
  sent_to: string[];
  failed: Record<string, string>;
  attempts: number;
  /** Final: `not configured` is a channel that could not be tried and went to the operators instead. */
  status?: "sent" | "partly sent" | "failed" | "not configured";
  outcome?: string;
  operator_alerts?: string[];
}

/** Where a channel's delivery state is kept between attempts (a ticket's history row, or redisLedger). */
export interface DeliveryLedger {
  read(): Promise<Partial<DeliveryState>>;
  /** Stores what changed; called as each recipient is reached, so a process dying mid-loop sends nobody anything twice. */
  write(state: Partial<DeliveryState>): Promise<void>;
}

/** How long a delivery's state outlives its last attempt in Redis: past any retry, and past the jobs BullMQ keeps. */
const LEDGER_TTL_SECONDS = 30 * 24 * 3600;

/**
 * A delivery's state kept in Redis beside its job, for deliveries without a
 * row of their own (budget-lock notices, milestone and chat messages): the
 * job and its state are lost or kept together.
 */
export function redisLedger(deps: { redis: RedisClient; config: Pick<Config, "QUEUE_PREFIX"> }, key: string): DeliveryLedger {
  const redisKey = `${deps.config.QUEUE_PREFIX}:delivery:${key}`;
  const read = async () => JSON.parse((await deps.redis.get(redisKey)) ?? "{}") as Partial<DeliveryState>;
  return {
    read,
    write: async (state) => {
      await deps.redis.set(redisKey, JSON.stringify({ ...(await read()), ...state }), "EX", LEDGER_TTL_SECONDS);
    },
  };
}

export interface Delivery {
  /** What is delivered, e.g. `budget-lock.12`: failed recipients' operator alerts are keyed by it, the channel and the recipient. */
  key: string;
  /** As operators read it: `e-mail`, `SMS`, `browser`, `chat`. */
  channel: string;
  subject: string;
  text: string;
  ledger: DeliveryLedger;
}

/** Sends to the recipients given and answers the ones that failed, with the provider's answer; `markReached` stores one reached on its own. */
export type Send = (to: string[], markReached: (recipient: string) => Promise<void>) => Promise<Map<string, string>>;

/** Sends to each recipient on its own, so one the provider refuses never keeps the message from the ones after it. */
export function eachAlone(sendOne: (recipient: string) => Promise<unknown>): Send {
  return async (to, markReached) => {
    const failed = new Map<string, string>();
    for (const recipient of to) {
      try {
        await sendOne(recipient);
      } catch (error) {
        failed.set(recipient, errorMessage(error));
        continue;
      }
      await markReached(recipient);
    }
    return failed;
  };
}

/** One message to all the recipients through SMTP_URL: the server's refusal of some is their failure, the others have it. */
export function byMail(config: MailConfig & { SMTP_URL: string }, message: { subject: string; text: string }): Send {
  return async (to) => {
    const sent = await sendMail(config, { to: to.join(", "), subject: message.subject, text: message.text });
    return new Map(sent.rejected.map((each) => [each.recipient, each.reason]));
  };
}

export type DeliveryOutcome = Omit<DeliveryState, "status"> & { status: NonNullable<DeliveryState["status"]> | "retrying"; retry_in?: number };

/**
 * One channel of a delivery, one attempt: sends to each recipient not
 * reached yet (reached ones are stored as they go, so a later attempt sends
 * only to the others). Failures answer `retrying` with the wait before the
 * next attempt (ALERT_DELIVERY_BACKOFF_MS, doubling) until
 * ALERT_DELIVERY_ATTEMPTS; then each recipient still failing is an operator
 * alert naming them, the channel and the provider's answer, and the outcome
 * says who got it and who did not, why. A channel that already has its final
 * outcome answers it again without sending anything.
 */
export async function deliverToEach(
  deps: { prisma: PrismaClient; config: DeliveryRetryConfig; log: Logger },
  delivery: Delivery,
  recipients: string[],
  send: Send,
): Promise<DeliveryOutcome> {
  const earlier = await delivery.ledger.read();
  if (earlier.status) return { sent_to: [], failed: {}, attempts: 0, ...earlier, status: earlier.status };
  const reached = new Set(earlier.sent_to ?? []);
  const owed = recipients.filter((recipient) => !reached.has(recipient));
  let failed: Map<string, string>;
  try {
    const markReached = async (recipient: string) => {
      reached.add(recipient);
      await delivery.ledger.write({ sent_to: [...reached] });
    };
    failed = owed.length ? await send(owed, markReached) : new Map();
  } catch (error) {
    failed = new Map(owed.map((recipient) => [recipient, errorMessage(error)]));
  }
  for (const recipient of owed) if (!failed.has(recipient)) reached.add(recipient);
  const attempts = Number(earlier.attempts ?? 0) + 1;
  const state = { sent_to: [...reached], failed: Object.fromEntries(failed), attempts };
  if (!failed.size) {
    await delivery.ledger.write({ ...state, status: "sent" });
    return { ...state, status: "sent" };
  }
  const reasons = [...failed].map(([recipient, reason]) => `${recipient}: ${reason}`).join("; ");
  const wait = nextDeliveryAttemptIn(deps.config, attempts);
  if (wait !== null) {
    await delivery.ledger.write(state);
    deps.log.warn("delivery attempt failed for some recipients", { delivery: delivery.key, channel: delivery.channel, attempt: attempts, failed: reasons, retry_in_ms: wait });
    return { ...state, status: "retrying", retry_in: wait };
  }
  const operatorAlerts: string[] = [];
  for (const [recipient, error] of failed) operatorAlerts.push(await recordFailedDelivery(deps, { key: delivery.key, channel: delivery.channel, recipient, error, subject: delivery.subject, text: delivery.text }));
  const final = { ...state, status: reached.size ? ("partly sent" as const) : ("failed" as const), outcome: `failed (${reasons}); sent to the operators instead`, operator_alerts: operatorAlerts };
  await delivery.ledger.write(final);
  deps.log.error("delivery undelivered to some recipients", { delivery: delivery.key, channel: delivery.channel, failed: reasons });
  return final;
}

/** The outcomes still retrying, as one wait (the soonest) and one reason, for the job's delay; null when none is. */
export function retryOf(what: string, outcomes: Record<string, DeliveryOutcome | null>): { wait: number; reason: string } | null {
  const retrying = Object.entries(outcomes).filter((entry): entry is [string, DeliveryOutcome] => entry[1]?.status === "retrying");
  if (!retrying.length) return null;
  const wait = Math.min(...retrying.map(([, outcome]) => outcome.retry_in!));
  const reason = retrying.map(([channel, outcome]) => `${what} ${channel} attempt ${outcome.attempts} failed for ${Object.entries(outcome.failed).map(([recipient, why]) => `${recipient}: ${why}`).join("; ")}`).join("; ");
  return { wait, reason };
}

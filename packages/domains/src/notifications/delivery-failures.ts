import { truncateCodePoints as truncate, type Config, type PrismaClient } from "@mw/platform";

export type DeliveryRetryConfig = Pick<Config, "ALERT_DELIVERY_ATTEMPTS" | "ALERT_DELIVERY_BACKOFF_MS">;

/** The wait before the next attempt after `attempts` failed ones (ALERT_DELIVERY_BACKOFF_MS, doubling); null once ALERT_DELIVERY_ATTEMPTS are used. */
export function nextDeliveryAttemptIn(config: DeliveryRetryConfig, attempts: number): number | null {
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

/**
 * A recipient no attempt reached: an operator alert naming the recipient,
 * the channel and the provider's answer, on the undelivered list (and
 * /readyz) until an operator resends it to the operators' channels or
 * dismisses it. Recording it twice changes nothing.
 */
export async function recordFailedDelivery({ prisma }: { prisma: PrismaClient }, failure: FailedDelivery): Promise<string> {
  const key = truncate(`${failure.key}.${failure.channel}.${failure.recipient}`, 191);
  const why = truncate(`${failure.channel} to ${failure.recipient} failed: ${failure.error}`, 500);
  await prisma.operatorAlert.upsert({
    where: { alert_key: key },
    create: { alert_key: key, subject: truncate(`Undelivered: ${failure.subject}`, 200), text: failure.text, reason: why, status: "undelivered", last_error: why },
    update: {},
  });
  return key;
}

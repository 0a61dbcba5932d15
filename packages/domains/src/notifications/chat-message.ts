import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { postChatMessage } from "@mw/providers/chat";
import { deliverToEach, eachAlone, redisLedger, retryOf } from "./delivery-failures.ts";

/** The chat webhook as the undelivered list names it: the setting, never its URL (a secret of its own). */
const CHAT_RECIPIENT = "CHAT_WEBHOOK_URL";

/**
 * Posts to CHAT_WEBHOOK_URL (from the environment, trusted): the job carries
 * only its text, so a forged job cannot name where it goes. A refused or
 * failed post is tried again (ALERT_DELIVERY_ATTEMPTS, ALERT_DELIVERY_BACKOFF_MS
 * doubling); after the last attempt it is on the operators' undelivered list
 * under `key` (a milestone alert's, or the job's id), with the webhook's answer.
 */
export async function sendChatMessage(deps: Pick<Connections, "config" | "prisma" | "redis"> & Pick<JobRun, "log" | "delay">, message: { key: string; subject?: string; text: string }) {
  let posted: { status: number } | undefined;
  const delivery = { key: message.key, channel: "chat", subject: message.subject ?? "Chat message", text: message.text, ledger: redisLedger(deps, `${message.key}.chat`) };
  const outcome = await deliverToEach(
    deps,
    delivery,
    [CHAT_RECIPIENT],
    eachAlone(async () => (posted = await postChatMessage(deps.config, message.text))),
  );
  const retry = retryOf("chat message", { chat: outcome });
  if (retry) return deps.delay(retry.wait, retry.reason);
  if (posted) deps.log.info("chat message posted", posted);
  // The webhook's answer when this run posted it; the stored outcome when an earlier one did, or none could.
  return posted ?? outcome;
}

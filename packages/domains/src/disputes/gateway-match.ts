import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import { decryptSecret } from "@mw/platform/crypto";
import { GatewayClient } from "@mw/providers/gateway";
import type { ActionLog } from "./action-log.ts";
import type { DisputeDetails } from "./details.ts";
import { chooseTransaction, matchMessage, windowAround, type TransactionMatch } from "./matching.ts";

/**
 * Asks the merchant's gateway account for the transactions with the dispute's
 * auth code around its date and chooses among them. `range` is the queried
 * window in words, for the alert e-mail. `storedKey` is the merchant
 * account's encrypted security key (null: no account has the MID).
 */
export async function matchTransaction(
  config: Config,
  steps: ActionLog,
  details: DisputeDetails,
  storedKey: string | null,
): Promise<{ match: TransactionMatch; range: string }> {
  const { mid, authCode } = details;
  if (!storedKey) throw AppError.permanent(`No gateway account found for MID ${mid}`, "no_account");
  const securityKey = decryptSecret(storedKey, config.ENCRYPTION_KEY);
  steps.info("account", `Gateway account found for MID ${mid}`);

  const window = windowAround(details.transactionDate);
  const { scanned, matches } = await GatewayClient.fromConfig(config).findByAuthCode(securityKey, authCode, window);
  const range = `${window.start.toISOString()} to ${window.end.toISOString()}`;
  steps.info("gateway", `Gateway query ${range}: ${scanned} transactions, ${matches.length} with auth code ${authCode}`, { scanned, matched: matches.length });

  const match = chooseTransaction(matches, details.card);
  steps.info("match", matchMessage(match, matches.length), match.transaction ? { outcome: match.outcome, transaction_id: match.transaction.transaction_id } : {});
  return { match, range };
}

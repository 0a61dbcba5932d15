import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import { decryptSecret } from "@mw/platform/crypto";
import { FraudClient, type FraudSubmission } from "@mw/providers/fraud";
import type { GatewayTransaction } from "@mw/providers/gateway";
import type { ActionLog } from "./action-log.ts";
import type { DisputeDetails } from "./details.ts";
import type { OrderWithSite } from "./order-linkage.ts";

type FraudResult = "submitted" | "already_submitted" | "skipped";

/**
 * Spec 1, 4.6 step 7, with the site's credentials. Never sends a case twice:
 * a stored `fraud_submitted_at` skips the call, and a 409 (the service had it
 * from a run that died before storing) counts as sent. A failure is returned,
 * not thrown, so the chargeback is still stored with it in its log.
 */
export async function notifyFraudService(
  config: Config,
  steps: ActionLog,
  details: DisputeDetails,
  tx: GatewayTransaction,
  order: OrderWithSite | null,
  submittedAt: Date | null,
): Promise<{ fraud: FraudResult; submission: FraudSubmission | null; failure?: unknown }> {
  const skipped = { fraud: "skipped" as const, submission: null };
  if (submittedAt) {
    steps.info("fraud", `Fraud service already has chargeback ${details.caseId} (submitted ${submittedAt.toISOString()}); not sent again`);
    return skipped;
  }
  if (!order) {
    steps.info("fraud", "Fraud-service submission skipped: no order, so no site credentials");
    return skipped;
  }
  const { id: siteId, fraud_team_id: teamId, fraud_api_key: envelope } = order.site;
  if (!teamId || !envelope) {
    steps.info("fraud", `Fraud-service submission skipped: site ${siteId} has no fraud_team_id/fraud_api_key`);
    return skipped;
  }
  try {
    const apiKey = readSiteKey(envelope, siteId, config.ENCRYPTION_KEY);
    const submission = await FraudClient.fromConfig(config).submitChargeback({ teamId, apiKey }, chargebackEvent(details, tx, order.number));
    steps.info(
      "fraud",
      submission.alreadySubmitted ? `Fraud service already held chargeback ${details.caseId} (409); counted as submitted` : `Chargeback ${details.caseId} submitted to the fraud service`,
    );
    return { fraud: submission.alreadySubmitted ? "already_submitted" : "submitted", submission };
  } catch (failure) {
    steps.error("fraud", `Fraud-service submission failed: ${(failure as Error).message}`);
    return { ...skipped, failure };
  }
}

function readSiteKey(envelope: string, siteId: number, key: Buffer): string {
  try {
    return decryptSecret(envelope, key);
  } catch {
    throw AppError.permanent(`site ${siteId}: fraud_api_key cannot be decrypted with ENCRYPTION_KEY`, "fraud_key_unreadable");
  }
}

function chargebackEvent(details: DisputeDetails, tx: GatewayTransaction, orderNumber: string) {
  const sale = tx.action.find((action) => action.action_type === "sale" || action.action_type === "capture") ?? tx.action[0];
  return {
    orderId: orderNumber,
    chargebackId: details.caseId,
    chargeback: {
      amount: { amount: Number(details.amount ?? sale?.amount ?? 0), currencyCode: tx.currency || "USD" },
      reason: { processorReasonCode: details.reasonCode ?? undefined, processorReasonDescription: details.reasonDesc ?? undefined },
    },
  };
}

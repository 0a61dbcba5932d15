import { AppError } from "@mw/platform/core";
import type { JobRun } from "@mw/platform/queues";
import type { Connections } from "@mw/platform/connections";
import { alertEmailJob } from "../notifications/index.ts";
import { recordWebhookOutcome } from "../webhooks/index.ts";
import { ActionLog } from "./action-log.ts";
import { chargebackStatement } from "./chargeback.ts";
import { readDisputeDetails, type DisputeDetails } from "./details.ts";
import { alertFor } from "./dispute-alert.ts";
import { notifyFraudService } from "./fraud-submission.ts";
import { matchTransaction } from "./gateway-match.ts";
import { disputeAlertJobId } from "./jobs.ts";
import { linkOrder } from "./order-linkage.ts";
import type { DisputeOutcome } from "./outcomes.ts";
import { loadDisputeWebhook, readStoredCase, storeCase, type DisputeWebhook } from "./stored-case.ts";

type Deps = Pick<Connections, "sql" | "queues" | "config"> & Pick<JobRun, "log">;

/** Failures whose AppError code is itself the outcome; every other failure ends as `failed`. */
const FAILURE_OUTCOMES = new Set<string>(["no_account", "invalid_dispute"]);

/**
 * `process-dispute` (spec 1, 4.6): match an acquirer dispute to a gateway
 * transaction, store the linkage, notify the fraud service, store the
 * chargeback. Safe to run again for the same case: linkage and chargeback are
 * keyed by case_id, the fraud service is never sent a chargeback twice, and
 * the alert e-mail has a job id per case. `endsJob` says whether a failure is
 * the job's last word: only then is the outcome recorded.
 */
export async function processReceivedDispute(deps: Deps, webhookId: number, endsJob: (error: unknown) => boolean) {
  const webhook = await loadDisputeWebhook(deps, webhookId);
  let log = deps.log.child({ webhook_id: webhook.id });
  const steps = new ActionLog();
  try {
    const details = readDisputeDetails(webhook.payload);
    log = log.child({ case_id: details.caseId, mid: details.mid });
    const result = await runPipeline(deps, webhook, details, steps);
    log.info("dispute processed", { step: "done", outcome: result.outcome, steps: steps.steps });
    return result;
  } catch (error) {
    const outcome: DisputeOutcome = error instanceof AppError && FAILURE_OUTCOMES.has(error.code) ? (error.code as DisputeOutcome) : "failed";
    const final = endsJob(error);
    log.error("dispute processing failed", { error: (error as Error).message, outcome, final, steps: steps.steps });
    // An attempt that BullMQ will retry leaves the row open; only the last word is recorded.
    if (final) await recordWebhookOutcome(deps, webhook.id, outcome).catch((mark: unknown) => log.error("could not record the outcome", { error: (mark as Error).message }));
    throw error;
  }
}

async function runPipeline(deps: Deps, webhook: DisputeWebhook, details: DisputeDetails, steps: ActionLog) {
  const { caseId } = details;
  recordDetails(steps, details);

  const stored = await readStoredCase(deps, details);
  const { match, range } = await matchTransaction(deps.config, steps, details, stored.securityKey);
  if (!match.transaction) {
    await recordWebhookOutcome(deps, webhook.id, match.outcome);
    return { outcome: match.outcome, case_id: caseId, transaction_id: null, order_number: null, fraud: "skipped" };
  }
  const tx = match.transaction;

  const { linked, chargeback: previous } = stored;
  // Queued before the linkage is written, so a crash in between cannot lose it; the job id sends it once.
  if (match.outcome === "linked_fallback" && !linked) {
    await deps.queues.add(alertEmailJob, alertFor(details, match.candidates, range), { jobId: disputeAlertJobId(caseId) });
    steps.info("alert", `Alert e-mail queued: ${match.candidates.length} transactions match, the first is used`);
  }
  const { order, linkage } = await linkOrder(deps, steps, details, tx, linked);

  const { fraud, submission, failure } = await notifyFraudService(deps.config, steps, details, tx, order, previous?.fraud_submitted_at ?? null);
  steps.info("chargeback", previous ? "Chargeback record updated" : "Chargeback record stored");
  const chargeback = chargebackStatement(previous, steps.entries, { acquirerData: webhook.payload, details, tx, orderNumber: order?.number ?? null, submission });
  // Linkage, chargeback and (when nothing failed) the processed mark: one transaction, one round trip.
  await storeCase(deps, linkage, chargeback, failure ? undefined : { webhookId: webhook.id, outcome: match.outcome });
  // The chargeback keeps the failed attempt in its log; the job then fails or retries visibly.
  if (failure) throw failure;
  return { outcome: match.outcome, case_id: caseId, transaction_id: tx.transaction_id, order_number: order?.number ?? null, fraud };
}

function recordDetails(steps: ActionLog, details: DisputeDetails): void {
  steps.info("details", `Dispute read: MID ${details.mid}, auth code ${details.authCode}, transaction date ${details.transactionDate}, amount ${details.amount ?? "unknown"}`, {
    transaction_date: details.transactionDate,
    card_first6: details.card.first6,
    card_last4: details.card.last4,
  });
}

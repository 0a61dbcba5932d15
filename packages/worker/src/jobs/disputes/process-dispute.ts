import { AppError, type PayloadOf } from "@mw/platform";
import {
  chargebackStatement,
  disputeAlertJobId,
  loadDisputeWebhook,
  readDisputeDetails,
  readStoredCase,
  storeCase,
  type DisputeDetails,
  type DisputeOutcome,
  type DisputeWebhook,
  type processDisputeJob,
} from "@mw/domains/disputes";
import { alertEmailJob } from "@mw/domains/notifications";
import { recordWebhookOutcome } from "@mw/domains/webhooks";
import type { Job } from "bullmq";
import { endsJob } from "../../runtime/attempts.ts";
import type { JobContext } from "../../runtime/processor.ts";
import { ActionLog } from "./action-log.ts";
import { alertFor } from "./alert-email.ts";
import { notifyFraudService } from "./fraud-submission.ts";
import { linkOrder } from "./linkage.ts";
import { matchTransaction } from "./match-transaction.ts";
import { recordDetails } from "./read-details.ts";

/** Failures whose AppError code is itself the outcome; every other failure ends as `failed`. */
const FAILURE_OUTCOMES = new Set<string>(["no_account", "invalid_dispute"]);

/**
 * `process-dispute` (spec 1, 4.6): match an acquirer dispute to a gateway
 * transaction, store the linkage, notify the fraud service, store the
 * chargeback. Safe to run again for the same case: linkage and chargeback are
 * keyed by case_id, the fraud service is never sent a chargeback twice, and
 * the alert e-mail has a job id per case.
 */
export async function processDispute(job: Job, payload: PayloadOf<typeof processDisputeJob>, ctx: JobContext) {
  const webhook = await loadDisputeWebhook(ctx, payload.webhook_id);
  let log = ctx.log.child({ webhook_id: webhook.id });
  const steps = new ActionLog();
  try {
    const details = readDisputeDetails(webhook.payload);
    log = log.child({ case_id: details.caseId, mid: details.mid });
    const result = await runPipeline(webhook, details, steps, ctx);
    log.info("dispute processed", { step: "done", outcome: result.outcome, steps: steps.steps });
    return result;
  } catch (error) {
    const outcome: DisputeOutcome = error instanceof AppError && FAILURE_OUTCOMES.has(error.code) ? (error.code as DisputeOutcome) : "failed";
    const final = endsJob(job, error);
    log.error("dispute processing failed", { error: (error as Error).message, outcome, final, steps: steps.steps });
    // An attempt that BullMQ will retry leaves the row open; only the last word is recorded.
    if (final) await recordWebhookOutcome(ctx, webhook.id, outcome).catch((mark: unknown) => log.error("could not record the outcome", { error: (mark as Error).message }));
    throw error;
  }
}

async function runPipeline(webhook: DisputeWebhook, details: DisputeDetails, steps: ActionLog, ctx: JobContext) {
  const { caseId } = details;
  recordDetails(steps, details);

  const stored = await readStoredCase(ctx, details);
  const { match, range } = await matchTransaction(ctx, steps, details, stored.securityKey);
  if (!match.transaction) {
    await recordWebhookOutcome(ctx, webhook.id, match.outcome);
    return { outcome: match.outcome, case_id: caseId, transaction_id: null, order_number: null, fraud: "skipped" };
  }
  const tx = match.transaction;

  const { linked, chargeback: previous } = stored;
  // Queued before the linkage is written, so a crash in between cannot lose it; the job id sends it once.
  if (match.outcome === "linked_fallback" && !linked) {
    await ctx.queues.add(alertEmailJob, alertFor(details, match.candidates, range), { jobId: disputeAlertJobId(caseId) });
    steps.info("alert", `Alert e-mail queued: ${match.candidates.length} transactions match, the first is used`);
  }
  const { order, linkage } = await linkOrder(ctx, steps, details, tx, linked);

  const { fraud, submission, failure } = await notifyFraudService(ctx, steps, details, tx, order, previous?.fraud_submitted_at ?? null);
  steps.info("chargeback", previous ? "Chargeback record updated" : "Chargeback record stored");
  const chargeback = chargebackStatement(previous, steps.entries, { acquirerData: webhook.payload, details, tx, orderNumber: order?.number ?? null, submission });
  // Linkage, chargeback and (when nothing failed) the processed mark: one transaction, one round trip.
  await storeCase(ctx, linkage, chargeback, failure ? undefined : { webhookId: webhook.id, outcome: match.outcome });
  // The chargeback keeps the failed attempt in its log; the job then fails or retries visibly.
  if (failure) throw failure;
  return { outcome: match.outcome, case_id: caseId, transaction_id: tx.transaction_id, order_number: order?.number ?? null, fraud };
}

import { AppError, decryptSecret, isUniqueViolation, type PayloadOf, type Logger } from "@mw/shared";
import { cardMatches, GatewayClient, type GatewayTransaction, type QueryWindow } from "@mw/shared/providers/gateway";
import { FraudClient, type FraudSubmission } from "@mw/shared/providers/fraud";
import { disputeAlertJobId, gatewayKeyFor, readDisputeDetails, type DisputeDetails, type DisputeOutcome, type processDisputeJob } from "@mw/shared/disputes";
import { alertEmailJob } from "@mw/shared/notifications";
import type { Job } from "bullmq";
import { endsJob } from "../../runtime/attempts.ts";
import type { JobContext } from "../../runtime/processor.ts";

type Outcome = DisputeOutcome;

/** Failures whose AppError code is itself the outcome; every other failure ends as `failed`. */
const FAILURE_OUTCOMES = new Set<string>(["no_account", "invalid_dispute"]);
const MATCH_STRATEGY = "authcode_card_match";
const DAY_MS = 86_400_000;
/** Spec 1, section 8: the gateway is asked for plus/minus 2 days around the transaction date. */
const WINDOW_DAYS = 2;
/** Candidates listed in the alert e-mail; the rest is counted. */
const ALERT_CANDIDATES = 20;

type Webhook = { id: number; payload: string };
type Match = { outcome: "no_gateway_result" | "no_match"; transaction?: undefined } | { outcome: "linked" | "linked_card" | "linked_fallback"; transaction: GatewayTransaction; candidates: GatewayTransaction[] };
type FraudResult = "submitted" | "already_submitted" | "skipped";

interface LogEntry {
  at: string;
  step: string;
  message: string;
}

/** The chargeback's action log (spec 1, 2.5), every entry also logged with the job and case ids. */
class ActionLog {
  readonly entries: LogEntry[] = [];

  constructor(private readonly log: Logger) {}

  info(step: string, message: string, meta: Record<string, unknown> = {}): void {
    this.record("info", step, message, meta);
  }

  error(step: string, message: string, meta: Record<string, unknown> = {}): void {
    this.record("error", step, message, meta);
  }

  private record(level: "info" | "error", step: string, message: string, meta: Record<string, unknown>): void {
    this.entries.push({ at: new Date().toISOString(), step, message });
    this.log.log(level, message, { step, ...meta });
  }
}

/**
 * `process-dispute` (spec 1, 4.6): match an acquirer dispute to a gateway
 * transaction, store the linkage, notify the fraud service, store the
 * chargeback. Safe to run again for the same case: linkage and chargeback are
 * keyed by case_id, the fraud service is never sent a chargeback twice, and
 * the alert e-mail has a job id per case.
 */
export async function processDispute(job: Job, payload: PayloadOf<typeof processDisputeJob>, ctx: JobContext) {
  const webhook = await ctx.prisma.webhookEvent.findUnique({ where: { id: payload.webhook_id }, select: { id: true, source: true, payload: true } });
  if (webhook?.source !== "acquirer") throw AppError.permanent(`webhook ${payload.webhook_id} is not a stored acquirer dispute`, "dispute_not_found");
  let log = ctx.log.child({ webhook_id: webhook.id });
  try {
    const details = readDisputeDetails(webhook.payload);
    log = log.child({ case_id: details.caseId, mid: details.mid });
    const result = await runPipeline(webhook, details, ctx, log);
    await markProcessed(ctx, webhook.id, result.outcome);
    log.info("dispute processed", { step: "done", outcome: result.outcome });
    return result;
  } catch (error) {
    const outcome: Outcome = error instanceof AppError && FAILURE_OUTCOMES.has(error.code) ? (error.code as Outcome) : "failed";
    const final = endsJob(job, error);
    log.error("dispute processing failed", { error: (error as Error).message, outcome, final });
    // An attempt that BullMQ will retry leaves the row open; only the last word is recorded.
    if (final) await markProcessed(ctx, webhook.id, outcome).catch((mark: unknown) => log.error("could not record the outcome", { error: (mark as Error).message }));
    throw error;
  }
}

async function runPipeline(webhook: Webhook, details: DisputeDetails, ctx: JobContext, log: Logger) {
  const steps = new ActionLog(log);
  const { caseId, mid, authCode } = details;
  steps.info("details", `Dispute read: MID ${mid}, auth code ${authCode}, transaction date ${details.transactionDate}, amount ${details.amount ?? "unknown"}`, {
    transaction_date: details.transactionDate,
    card_first6: details.card.first6,
    card_last4: details.card.last4,
  });

  const securityKey = await gatewayKeyFor(ctx.prisma, ctx.config.ENCRYPTION_KEY, mid);
  if (!securityKey) throw AppError.permanent(`No gateway account found for MID ${mid}`, "no_account");
  steps.info("account", `Gateway account found for MID ${mid}`);

  const window = windowAround(details.transactionDate);
  const { scanned, matches } = await GatewayClient.fromConfig(ctx.config).findByAuthCode(securityKey, authCode, window);
  const range = `${window.start.toISOString()} to ${window.end.toISOString()}`;
  steps.info("gateway", `Gateway query ${range}: ${scanned} transactions, ${matches.length} with auth code ${authCode}`, { scanned, matched: matches.length });

  const match = chooseTransaction(matches, details.card);
  if (!match.transaction) {
    steps.info("match", match.outcome === "no_gateway_result" ? "No gateway transaction has the auth code; nothing linked" : `None of the ${matches.length} transactions has the dispute's card digits; nothing linked`);
    return { outcome: match.outcome, case_id: caseId, transaction_id: null, order_number: null, fraud: "skipped" };
  }
  const tx = match.transaction;
  steps.info("match", matchMessage(match, matches.length), { outcome: match.outcome, transaction_id: tx.transaction_id });

  const linked = await ctx.prisma.disputeLinkage.findUnique({ where: { case_id: caseId }, select: { id: true } });
  // Queued before the linkage is written, so a crash in between cannot lose it; the job id sends it once.
  if (match.outcome === "linked_fallback" && !linked) {
    await ctx.queues.add(alertEmailJob, alertFor(details, match.candidates, range), { jobId: disputeAlertJobId(caseId) });
    steps.info("alert", `Alert e-mail queued: ${match.candidates.length} transactions match, the first is used`);
  }

  const order = await findOrder(ctx, tx);
  steps.info("order", order ? `Order ${order.number} of site ${order.site.id} found` : `No order with number ${tx.order_id || "(none)"} or transaction id ${tx.transaction_id}`, {
    order_number: order?.number ?? null,
  });

  await storeLinkage(ctx, details, tx, order?.number ?? null);
  steps.info("linkage", `${linked ? "Linkage updated" : "Linkage stored"}: transaction ${tx.transaction_id}`);

  const previous = await ctx.prisma.chargeback.findUnique({ where: { case_id: caseId }, select: { fraud_submitted_at: true, action_log: true } });
  const { fraud, submission, failure } = await notifyFraudService(ctx, steps, details, tx, order, previous?.fraud_submitted_at ?? null);

  steps.info("chargeback", previous ? "Chargeback record updated" : "Chargeback record stored");
  const actionLog = [...parseLog(previous?.action_log), ...steps.entries];
  await storeChargeback(ctx, webhook, details, tx, order?.number ?? null, submission, actionLog);
  // The chargeback keeps the failed attempt in its log; the job then fails or retries visibly.
  if (failure) throw failure;
  return { outcome: match.outcome, case_id: caseId, transaction_id: tx.transaction_id, order_number: order?.number ?? null, fraud };
}

/**
 * Spec 1, 4.6 step 7, with the site's credentials. Never sends a case twice:
 * a stored `fraud_submitted_at` skips the call, and a 409 (the service had it
 * from a run that died before storing) counts as sent. A failure is returned,
 * not thrown, so the chargeback is still stored with it in its log.
 */
async function notifyFraudService(
  ctx: JobContext,
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
    const apiKey = readSiteKey(envelope, siteId, ctx.config.ENCRYPTION_KEY);
    const submission = await FraudClient.forTeam(ctx.config, { teamId, apiKey }).submitChargeback(chargebackEvent(details, tx, order.number));
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

/** Spec 1, 3.2: one auth-code match is linked; several are narrowed by card digits; several left means alert and the first. */
function chooseTransaction(matches: GatewayTransaction[], card: DisputeDetails["card"]): Match {
  if (matches.length === 0) return { outcome: "no_gateway_result" };
  if (matches.length === 1) return { outcome: "linked", transaction: matches[0]!, candidates: matches };
  const byCard = matches.filter((tx) => cardMatches(tx, card));
  if (byCard.length === 0) return { outcome: "no_match" };
  return { outcome: byCard.length === 1 ? "linked_card" : "linked_fallback", transaction: byCard[0]!, candidates: byCard };
}

function matchMessage(match: Match & { transaction: GatewayTransaction }, matched: number): string {
  const id = match.transaction.transaction_id;
  if (match.outcome === "linked") return `One transaction has the auth code: ${id}`;
  if (match.outcome === "linked_card") return `${matched} transactions have the auth code; the card digits leave one: ${id}`;
  return `${matched} transactions have the auth code and ${match.candidates.length} the card digits; the first, ${id}, is used as fallback`;
}

/** Whole UTC days: the transaction date may be the acquirer's local day, and gateway times are UTC. */
function windowAround(day: string): QueryWindow {
  const midnight = Date.parse(`${day}T00:00:00Z`);
  return { start: new Date(midnight - WINDOW_DAYS * DAY_MS), end: new Date(midnight + (WINDOW_DAYS + 1) * DAY_MS - 1000) };
}

function alertFor(details: DisputeDetails, candidates: GatewayTransaction[], range: string): { subject: string; text: string } {
  const { caseId, mid, authCode, card } = details;
  const lines = candidates.slice(0, ALERT_CANDIDATES).map((tx) => {
    const sale = tx.action[0];
    return `- transaction ${tx.transaction_id}, order ${tx.order_id || "(none)"}, card ${tx.cc_bin}/${tx.cc_number}, ${sale ? `${sale.action_type} ${sale.amount} at ${sale.date}` : "no actions"}`;
  });
  if (candidates.length > ALERT_CANDIDATES) lines.push(`- and ${candidates.length - ALERT_CANDIDATES} more`);
  return {
    subject: `Dispute ${caseId}: ${candidates.length} gateway transactions match, first one linked`.slice(0, 200),
    text: [
      `Dispute ${caseId}${details.caseNumber ? ` (case number ${details.caseNumber})` : ""} for MID ${mid} matches ${candidates.length} gateway transactions`,
      `with auth code ${authCode} between ${range} and card digits ${card.first6 ?? "??????"}...${card.last4 ?? "????"}.`,
      "",
      `The first, transaction ${candidates[0]!.transaction_id}, was linked as a fallback. Please check the linkage.`,
      "",
      "Candidates:",
      ...lines,
    ].join("\n"),
  };
}

type OrderWithSite = { number: string; site: { id: number; fraud_team_id: string | null; fraud_api_key: string | null } };

/**
 * The gateway's order_id is our order number; when no order has it, the
 * transaction id is our trans_id. Order numbers are unique per site only, so
 * an order matching both wins over one matching the number alone.
 */
async function findOrder(ctx: JobContext, tx: GatewayTransaction): Promise<OrderWithSite | null> {
  const or = [
    ...(tx.order_id && tx.order_id.length <= 20 ? [{ number: tx.order_id }] : []),
    ...(tx.transaction_id.length <= 20 ? [{ trans_id: tx.transaction_id }] : []),
  ];
  if (!or.length) return null;
  const orders = await ctx.prisma.order.findMany({
    where: { OR: or },
    orderBy: { id: "asc" },
    take: 20,
    select: { number: true, trans_id: true, site: { select: { id: true, fraud_team_id: true, fraud_api_key: true } } },
  });
  const rank = (order: { number: string; trans_id: string | null }) =>
    (order.number === tx.order_id ? 0 : 2) + (order.trans_id === tx.transaction_id ? 0 : 1);
  return orders.sort((a, b) => rank(a) - rank(b))[0] ?? null;
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

/** Two runs of one case may both find no row and both insert: the loser's retry finds the row and updates it. */
async function upsertOnce<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return write();
  }
}

async function storeLinkage(ctx: JobContext, details: DisputeDetails, tx: GatewayTransaction, orderNumber: string | null): Promise<void> {
  const data = {
    case_number: details.caseNumber,
    mid: details.mid,
    gateway_transaction_id: tx.transaction_id.slice(0, 64),
    gateway_order_id: tx.order_id ? tx.order_id.slice(0, 128) : null,
    order_number: orderNumber,
    match_strategy: MATCH_STRATEGY,
    amount: details.amount,
    auth_code: details.authCode,
    arn: details.arn,
    transaction_date: new Date(`${details.transactionDate}T00:00:00Z`),
    reason_code: details.reasonCode,
    reason_desc: details.reasonDesc,
    dispute_status: details.disputeStatus,
    acquirer_data: JSON.stringify(details.record),
    gateway_data: JSON.stringify(tx),
  };
  // linked_at keeps the first linking; a rerun refreshes the rest.
  await upsertOnce(() =>
    ctx.prisma.disputeLinkage.upsert({
      where: { case_id: details.caseId },
      create: { case_id: details.caseId, linked_at: new Date(), ...data },
      update: data,
      select: { id: true },
    }),
  );
}

async function storeChargeback(
  ctx: JobContext,
  webhook: Webhook,
  details: DisputeDetails,
  tx: GatewayTransaction,
  orderNumber: string | null,
  submission: FraudSubmission | null,
  actionLog: LogEntry[],
): Promise<void> {
  const data = {
    mid: details.mid,
    gateway_transaction_id: tx.transaction_id.slice(0, 64),
    order_number: orderNumber,
    amount: details.amount,
    reason_code: details.reasonCode,
    reason_desc: details.reasonDesc,
    acquirer_data: webhook.payload,
    action_log: JSON.stringify(actionLog),
    ...(submission && { fraud_response: JSON.stringify(submission.response), fraud_submitted_at: new Date() }),
  };
  await upsertOnce(() =>
    ctx.prisma.chargeback.upsert({ where: { case_id: details.caseId }, create: { case_id: details.caseId, ...data }, update: data, select: { id: true } }),
  );
}

function parseLog(text: string | undefined): LogEntry[] {
  if (!text) return [];
  try {
    const entries: unknown = JSON.parse(text);
    return Array.isArray(entries) ? (entries as LogEntry[]) : [];
  } catch {
    return [];
  }
}

async function markProcessed(ctx: JobContext, webhookId: number, outcome: Outcome): Promise<void> {
  await ctx.prisma.webhookEvent.updateMany({ where: { id: webhookId }, data: { processed_at: new Date(), outcome } });
}

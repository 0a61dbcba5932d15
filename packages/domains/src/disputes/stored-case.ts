import { AppError } from "@mw/platform/core";
import type { Config } from "@mw/platform/config";
import { missingRow, poolQuery, type SqlPool, type Statement, writeTogether } from "@mw/platform/database";
import { readWebhookEvent, webhookOutcomeStatement } from "../webhooks/index.ts";
import type { DisputeDetails } from "./details.ts";
import type { DisputeOutcome } from "./outcomes.ts";

// The dispute pipeline's reads and writes, on the driver pool (text protocol, one round trip each:
// docs/decisions.md, "Dispute pipeline throughput").

export interface DisputeWebhook {
  id: number;
  payload: string;
}

/**
 * The job's webhook row. A row of another source can never be processed, so that fails permanently; a
 * missing row is retried like any failure, its reason naming the database looked in (missingRow).
 */
export async function loadDisputeWebhook(deps: { sql: SqlPool; config: Pick<Config, "DATABASE_URL"> }, webhookId: number): Promise<DisputeWebhook> {
  const webhook = await readWebhookEvent(deps, webhookId);
  if (!webhook) throw missingRow(`webhook ${webhookId}`, deps.config, "dispute_not_found");
  if (webhook.source !== "acquirer") throw AppError.permanent(`webhook ${webhookId} is not a stored acquirer dispute`, "dispute_not_found");
  return { id: webhook.id, payload: webhook.payload };
}

/** What an earlier run of the case stored. */
export interface StoredChargeback {
  fraud_submitted_at: Date | null;
  action_log: string;
}

/** What the database holds for a case before this run. */
interface StoredCase {
  /** The merchant account's gateway security key, still encrypted; null when no account has the MID. */
  securityKey: string | null;
  /** A linkage exists: an earlier run linked the case. */
  linked: boolean;
  chargeback: StoredChargeback | null;
}

/**
 * The merchant account, the linkage and the chargeback of the case in one
 * round trip. Earlier runs' rows are read before the gateway query rather
 * than after it; nothing between the two writes them except another run of the
 * same case, against which the fraud service's 409 guards as before.
 */
export async function readStoredCase(deps: { sql: SqlPool }, details: DisputeDetails): Promise<StoredCase> {
  const [row] = await poolQuery<{ security_key: string | null; linked: number; chargeback_id: number | null; fraud_submitted_at: Date | null; action_log: string | null }[]>(
    deps,
    `SELECT (SELECT security_key FROM merchant_accounts WHERE mid = ?) AS security_key,
            EXISTS (SELECT 1 FROM dispute_linkages WHERE case_id = ?) AS linked,
            c.id AS chargeback_id, c.fraud_submitted_at, c.action_log
       FROM (SELECT 1) AS one LEFT JOIN chargebacks c ON c.case_id = ?`,
    [details.mid, details.caseId, details.caseId],
  );
  return {
    securityKey: row!.security_key,
    linked: Number(row!.linked) === 1,
    chargeback: row!.chargeback_id === null ? null : { fraud_submitted_at: row!.fraud_submitted_at, action_log: row!.action_log ?? "" },
  };
}

/**
 * Linkage, chargeback and, when the run ended well, the webhook's processed
 * mark with its outcome: one transaction, one round trip.
 */
export async function storeCase(deps: { sql: SqlPool }, linkage: Statement, chargeback: Statement, processed?: { webhookId: number; outcome: DisputeOutcome }): Promise<void> {
  await writeTogether(deps, processed ? [linkage, chargeback, webhookOutcomeStatement(processed.webhookId, processed.outcome)] : [linkage, chargeback]);
}

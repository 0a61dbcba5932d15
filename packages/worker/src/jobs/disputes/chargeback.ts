import type { DisputeDetails } from "@mw/shared/disputes";
import { truncateCodePoints } from "@mw/platform";
import type { FraudSubmission } from "@mw/providers/fraud";
import type { GatewayTransaction } from "@mw/providers/gateway";
import type { ActionLog, LogEntry } from "./action-log.ts";
import type { Statement } from "./sql.ts";

/** What an earlier run of the case stored. */
export interface StoredChargeback {
  fraud_submitted_at: Date | null;
  action_log: string;
}

export interface ChargebackRecord {
  /** The raw webhook body. */
  acquirerData: string;
  details: DisputeDetails;
  tx: GatewayTransaction;
  orderNumber: string | null;
  submission: FraudSubmission | null;
}

const CHARGEBACK_COLUMNS = ["mid", "gateway_transaction_id", "order_number", "amount", "reason_code", "reason_desc", "acquirer_data", "action_log"] as const;

/** Upserted by case_id in one atomic statement; the fraud columns only when this run submitted, so a skipped rerun keeps the first answer. */
function upsertChargeback(submitted: boolean): string {
  const columns = [...CHARGEBACK_COLUMNS, ...(submitted ? ["fraud_response", "fraud_submitted_at"] : [])];
  return `INSERT INTO chargebacks (case_id, ${columns.join(", ")})
    VALUES (?, ${columns.map((column) => (column === "fraud_submitted_at" ? "NOW(3)" : "?")).join(", ")})
    ON DUPLICATE KEY UPDATE ${columns.map((column) => `${column} = VALUES(${column})`).join(", ")}`;
}
const UPSERT = { submitted: upsertChargeback(true), unsubmitted: upsertChargeback(false) };

/** The statement that stores the case's chargeback; its action log is the earlier runs' entries followed by this run's. */
export function chargebackStatement(steps: ActionLog, previous: StoredChargeback | null, record: ChargebackRecord): Statement {
  steps.info("chargeback", previous ? "Chargeback record updated" : "Chargeback record stored");
  const { details, tx, submission } = record;
  const values: Record<(typeof CHARGEBACK_COLUMNS)[number], unknown> = {
    mid: details.mid,
    gateway_transaction_id: truncateCodePoints(tx.transaction_id, 64),
    order_number: record.orderNumber,
    amount: details.amount,
    reason_code: details.reasonCode,
    reason_desc: details.reasonDesc,
    acquirer_data: record.acquirerData,
    action_log: JSON.stringify([...parseLog(previous?.action_log), ...steps.entries]),
  };
  const params = [details.caseId, ...CHARGEBACK_COLUMNS.map((column) => values[column])];
  return submission ? [UPSERT.submitted, [...params, JSON.stringify(submission.response)]] : [UPSERT.unsubmitted, params];
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

import type { Statement } from "@mw/platform/database";
import { truncateCodePoints } from "@mw/platform/text";
import type { FraudSubmission } from "@mw/providers/fraud";
import type { GatewayTransaction } from "@mw/providers/gateway";
import type { DisputeDetails } from "./details.ts";
import type { StoredChargeback } from "./stored-case.ts";

/** One entry of a chargeback's action log (spec 1, 2.5). */
export interface ActionLogEntry {
  at: string;
  step: string;
  message: string;
}

interface ChargebackRecord {
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

/** The statement that stores the case's chargeback; its action log is the earlier runs' entries followed by this run's `entries`. */
export function chargebackStatement(previous: StoredChargeback | null, entries: ActionLogEntry[], record: ChargebackRecord): Statement {
  const { details, tx, submission } = record;
  const values: Record<(typeof CHARGEBACK_COLUMNS)[number], unknown> = {
    mid: details.mid,
    gateway_transaction_id: truncateCodePoints(tx.transaction_id, 64),
    order_number: record.orderNumber,
    amount: details.amount,
    reason_code: details.reasonCode,
    reason_desc: details.reasonDesc,
    acquirer_data: record.acquirerData,
    action_log: JSON.stringify([...parseLog(previous?.action_log), ...entries]),
  };
  const params = [details.caseId, ...CHARGEBACK_COLUMNS.map((column) => values[column])];
  return submission ? [UPSERT.submitted, [...params, JSON.stringify(submission.response)]] : [UPSERT.unsubmitted, params];
}

function parseLog(text: string | undefined): ActionLogEntry[] {
  if (!text) return [];
  try {
    const entries: unknown = JSON.parse(text);
    return Array.isArray(entries) ? (entries as ActionLogEntry[]) : [];
  } catch {
    return [];
  }
}

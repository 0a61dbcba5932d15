import type { Statement } from "@mw/platform/database";
import { truncateCodePoints } from "@mw/platform/text";
import type { GatewayTransaction } from "@mw/providers/gateway";
import type { DisputeDetails } from "./details.ts";

const MATCH_STRATEGY = "authcode_card_match";

/** Columns a rerun refreshes; `linked_at` keeps the first linking. */
const LINKAGE_COLUMNS = [
  "case_number", "mid", "gateway_transaction_id", "gateway_order_id", "order_number", "match_strategy", "amount", "auth_code",
  "arn", "transaction_date", "reason_code", "reason_desc", "dispute_status", "acquirer_data", "gateway_data",
] as const;

/** Upserted by case_id in one atomic statement, so two runs of a case cannot both insert. */
const UPSERT_LINKAGE = `INSERT INTO dispute_linkages (case_id, linked_at, ${LINKAGE_COLUMNS.join(", ")})
  VALUES (?, NOW(3), ${LINKAGE_COLUMNS.map(() => "?").join(", ")})
  ON DUPLICATE KEY UPDATE ${LINKAGE_COLUMNS.map((column) => `${column} = VALUES(${column})`).join(", ")}`;

/** The statement that stores the case's linkage to the transaction and to our order (null: none found); written with the chargeback (storeCase). */
export function linkageStatement(details: DisputeDetails, tx: GatewayTransaction, orderNumber: string | null): Statement {
  const values: Record<(typeof LINKAGE_COLUMNS)[number], unknown> = {
    case_number: details.caseNumber,
    mid: details.mid,
    gateway_transaction_id: truncateCodePoints(tx.transaction_id, 64),
    gateway_order_id: tx.order_id ? truncateCodePoints(tx.order_id, 128) : null,
    order_number: orderNumber,
    match_strategy: MATCH_STRATEGY,
    amount: details.amount,
    auth_code: details.authCode,
    arn: details.arn,
    transaction_date: details.transactionDate,
    reason_code: details.reasonCode,
    reason_desc: details.reasonDesc,
    dispute_status: details.disputeStatus,
    acquirer_data: JSON.stringify(details.record),
    gateway_data: JSON.stringify(tx),
  };
  return [UPSERT_LINKAGE, [details.caseId, ...LINKAGE_COLUMNS.map((column) => values[column])]];
}

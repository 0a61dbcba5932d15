import type { DisputeDetails } from "@mw/shared/disputes";
import { truncateCodePoints } from "@mw/platform";
import type { GatewayTransaction } from "@mw/providers/gateway";
import type { JobContext } from "../../runtime/processor.ts";
import type { ActionLog } from "./action-log.ts";
import { query, type Statement } from "./sql.ts";

const MATCH_STRATEGY = "authcode_card_match";

export type OrderWithSite = { number: string; site: { id: number; fraud_team_id: string | null; fraud_api_key: string | null } };

/**
 * Finds our order for the transaction and gives the statement that stores the
 * case's linkage to both; it is written with the chargeback, in the same
 * transaction (process-dispute). `relinking` says a linkage existed before.
 */
export async function linkOrder(
  ctx: JobContext,
  steps: ActionLog,
  details: DisputeDetails,
  tx: GatewayTransaction,
  relinking: boolean,
): Promise<{ order: OrderWithSite | null; linkage: Statement }> {
  const order = await findOrder(ctx, tx);
  steps.info("order", order ? `Order ${order.number} of site ${order.site.id} found` : `No order with number ${tx.order_id || "(none)"} or transaction id ${tx.transaction_id}`, {
    order_number: order?.number ?? null,
  });
  steps.info("linkage", `${relinking ? "Linkage updated" : "Linkage stored"}: transaction ${tx.transaction_id}`);
  return { order, linkage: linkageStatement(details, tx, order?.number ?? null) };
}

/**
 * The gateway's order_id is our order number; when no order has it, the
 * transaction id is our trans_id. Order numbers are unique per site only, so
 * an order matching both wins over one matching the number alone.
 */
async function findOrder(ctx: JobContext, tx: GatewayTransaction): Promise<OrderWithSite | null> {
  const byNumber = tx.order_id && tx.order_id.length <= 20 ? tx.order_id : null;
  const byTransId = tx.transaction_id.length <= 20 ? tx.transaction_id : null;
  if (byNumber === null && byTransId === null) return null;
  // A condition whose value is NULL matches nothing, as an absent OR member did.
  const orders = await query<{ number: string; trans_id: string | null; site_id: number; fraud_team_id: string | null; fraud_api_key: string | null }[]>(
    ctx,
    `SELECT o.number, o.trans_id, s.id AS site_id, s.fraud_team_id, s.fraud_api_key
       FROM orders o JOIN sites s ON s.id = o.site_id
      WHERE o.number = ? OR o.trans_id = ?
      ORDER BY o.id LIMIT 20`,
    [byNumber, byTransId],
  );
  const rank = (order: { number: string; trans_id: string | null }) =>
    (order.number === tx.order_id ? 0 : 2) + (order.trans_id === tx.transaction_id ? 0 : 1);
  const best = orders.sort((a, b) => rank(a) - rank(b))[0];
  return best ? { number: best.number, site: { id: best.site_id, fraud_team_id: best.fraud_team_id, fraud_api_key: best.fraud_api_key } } : null;
}

/** Columns a rerun refreshes; `linked_at` keeps the first linking. */
const LINKAGE_COLUMNS = [
  "case_number", "mid", "gateway_transaction_id", "gateway_order_id", "order_number", "match_strategy", "amount", "auth_code",
  "arn", "transaction_date", "reason_code", "reason_desc", "dispute_status", "acquirer_data", "gateway_data",
] as const;

/** Upserted by case_id in one atomic statement, so two runs of a case cannot both insert. */
const UPSERT_LINKAGE = `INSERT INTO dispute_linkages (case_id, linked_at, ${LINKAGE_COLUMNS.join(", ")})
  VALUES (?, NOW(3), ${LINKAGE_COLUMNS.map(() => "?").join(", ")})
  ON DUPLICATE KEY UPDATE ${LINKAGE_COLUMNS.map((column) => `${column} = VALUES(${column})`).join(", ")}`;

function linkageStatement(details: DisputeDetails, tx: GatewayTransaction, orderNumber: string | null): Statement {
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

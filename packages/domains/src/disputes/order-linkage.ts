import type { Statement } from "@mw/platform/database";
import type { Connections } from "@mw/platform/connections";
import { ordersForTransaction } from "../orders/index.ts";
import type { GatewayTransaction } from "@mw/providers/gateway";
import type { ActionLog } from "./action-log.ts";
import type { DisputeDetails } from "./details.ts";
import { linkageStatement } from "./linkage.ts";

export type OrderWithSite = { number: string; site: { id: number; fraud_team_id: string | null; fraud_api_key: string | null } };

/**
 * Finds our order for the transaction and gives the statement that stores the
 * case's linkage to both; it is written with the chargeback, in the same
 * transaction (process-dispute). `relinking` says a linkage existed before.
 */
export async function linkOrder(
  deps: Pick<Connections, "sql">,
  steps: ActionLog,
  details: DisputeDetails,
  tx: GatewayTransaction,
  relinking: boolean,
): Promise<{ order: OrderWithSite | null; linkage: Statement }> {
  const order = await findOrder(deps, tx);
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
async function findOrder(deps: Pick<Connections, "sql">, tx: GatewayTransaction): Promise<OrderWithSite | null> {
  const byNumber = tx.order_id && tx.order_id.length <= 20 ? tx.order_id : null;
  const byTransId = tx.transaction_id.length <= 20 ? tx.transaction_id : null;
  if (byNumber === null && byTransId === null) return null;
  const orders = await ordersForTransaction(deps, byNumber, byTransId);
  const rank = (order: { number: string; trans_id: string | null }) =>
    (order.number === tx.order_id ? 0 : 2) + (order.trans_id === tx.transaction_id ? 0 : 1);
  const best = orders.sort((a, b) => rank(a) - rank(b))[0];
  return best ? { number: best.number, site: { id: best.site_id, fraud_team_id: best.fraud_team_id, fraud_api_key: best.fraud_api_key } } : null;
}

import type { DisputeDetails } from "@mw/shared/disputes";
import { truncateCodePoints } from "@mw/shared";
import type { GatewayTransaction } from "@mw/shared/providers/gateway";
import type { JobContext } from "../../runtime/processor.ts";
import type { ActionLog } from "./action-log.ts";
import { upsertOnce } from "./upsert-once.ts";

const MATCH_STRATEGY = "authcode_card_match";

export type OrderWithSite = { number: string; site: { id: number; fraud_team_id: string | null; fraud_api_key: string | null } };

export async function linkageExists(ctx: JobContext, caseId: string): Promise<boolean> {
  return (await ctx.prisma.disputeLinkage.findUnique({ where: { case_id: caseId }, select: { id: true } })) !== null;
}

/** Stores the case's linkage to the transaction and to our order, when one is found; `relinking` says a linkage existed before. */
export async function linkOrder(ctx: JobContext, steps: ActionLog, details: DisputeDetails, tx: GatewayTransaction, relinking: boolean): Promise<OrderWithSite | null> {
  const order = await findOrder(ctx, tx);
  steps.info("order", order ? `Order ${order.number} of site ${order.site.id} found` : `No order with number ${tx.order_id || "(none)"} or transaction id ${tx.transaction_id}`, {
    order_number: order?.number ?? null,
  });

  await storeLinkage(ctx, details, tx, order?.number ?? null);
  steps.info("linkage", `${relinking ? "Linkage updated" : "Linkage stored"}: transaction ${tx.transaction_id}`);
  return order;
}

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

async function storeLinkage(ctx: JobContext, details: DisputeDetails, tx: GatewayTransaction, orderNumber: string | null): Promise<void> {
  const data = {
    case_number: details.caseNumber,
    mid: details.mid,
    gateway_transaction_id: truncateCodePoints(tx.transaction_id, 64),
    gateway_order_id: tx.order_id ? truncateCodePoints(tx.order_id, 128) : null,
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

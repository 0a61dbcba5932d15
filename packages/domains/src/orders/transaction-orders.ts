import { poolQuery, type SqlPool } from "@mw/platform/database";
import { fraudCredentialsOf, type SiteFraudCredentials } from "../sites/index.ts";

/** An order a gateway transaction may belong to, with its site's fraud-service credentials (the dispute pipeline submits with them). */
interface TransactionOrder extends SiteFraudCredentials {
  number: string;
  trans_id: string | null;
}

/**
 * Orders whose number is `byNumber` or whose trans_id is `byTransId` (a null
 * matches nothing), oldest first, at most 20, each with its site's credentials
 * from the sites domain: on the driver pool, as the dispute pipeline reads
 * (docs/decisions.md, "Dispute pipeline throughput").
 */
export async function ordersForTransaction(deps: { sql: SqlPool }, byNumber: string | null, byTransId: string | null): Promise<TransactionOrder[]> {
  const orders = await poolQuery<{ number: string; trans_id: string | null; site_id: number }[]>(
    deps,
    `SELECT number, trans_id, site_id FROM orders
      WHERE number = ? OR trans_id = ?
      ORDER BY id LIMIT 20`,
    [byNumber, byTransId],
  );
  const credentials = await fraudCredentialsOf(deps, orders.map((order) => order.site_id));
  return orders.flatMap((order) => {
    const site = credentials.get(order.site_id);
    return site ? [{ number: order.number, trans_id: order.trans_id, ...site }] : [];
  });
}
